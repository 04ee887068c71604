// mixed_float16's dynamic loss scale as Keras' LossScaleOptimizer keeps it (2^15 at first,
// halved at each skipped step but never below 1, doubled after 2000 applied steps in a row), its
// place in a checkpoint (a resumed run scales as the uninterrupted one), and the host's float16
// conversions that read a GPU's float16 buffers back.
#include <QtTest>

#include <cmath>
#include <limits>

#include "graph_builder.h"
#include "layerforge/core/float16.h"
#include "layerforge/graph/model.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/train/loss_scale.h"
#include "layerforge/train/optimizer.h"

using namespace lf;

class TestLossScale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void starts_at_keras_initial_scale() {
        LossScale s;
        QCOMPARE(s.scale(), 32768.f);
        QCOMPARE(s.state().good_steps, std::int64_t(0));
    }

    void a_skipped_step_halves_it_down_to_one() {
        LossScale s;
        s.after_step(true);
        s.after_step(false);
        QCOMPARE(s.scale(), 16384.f);
        QCOMPARE(s.state().good_steps, std::int64_t(0));  // the streak starts again
        for (int i = 0; i < 40; ++i) s.after_step(false);
        QCOMPARE(s.scale(), 1.f);
    }

    void growth_steps_in_a_row_double_it() {
        LossScale s;
        for (std::int64_t i = 0; i < LossScale::kGrowthSteps - 1; ++i) s.after_step(true);
        QCOMPARE(s.scale(), 32768.f);
        s.after_step(true);
        QCOMPARE(s.scale(), 65536.f);
        QCOMPARE(s.state().good_steps, std::int64_t(0));
        for (std::int64_t i = 0; i < LossScale::kGrowthSteps - 1; ++i) s.after_step(true);
        s.after_step(false);  // one overflow just before the next doubling resets the streak
        QCOMPARE(s.scale(), 32768.f);
    }

    void a_checkpoint_keeps_it() {
        Model model(mlp_builder({4}, 8, "relu", 3).graph);
        model.init_weights(1);
        auto opt = make_optimizer("Adam", {});
        opt->bind(model.trainable_size());
        TrainState s;
        s.loss_scale = LossScale::State{4096, 17};
        Model back(mlp_builder({4}, 8, "relu", 3).graph);
        auto opt_back = make_optimizer("Adam", {});
        opt_back->bind(back.trainable_size());
        TrainState r;
        try {
            r = restore_checkpoint(back, *opt_back, encode_checkpoint(model, *opt, s), "test");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(r.loss_scale.has_value());
        QCOMPARE(*r.loss_scale, *s.loss_scale);
        TrainState plain;  // float32 and bfloat16 runs have none
        QVERIFY(!restore_checkpoint(back, *opt_back, encode_checkpoint(model, *opt, plain), "test").loss_scale);
    }

    void float16_widens_every_value_exactly_and_rounds_back() {
        for (std::uint32_t h = 0; h < 0x10000u; ++h) {
            const float f = from_float16(std::uint16_t(h));
            if (std::isnan(f)) {
                QVERIFY(std::isnan(from_float16(to_float16(f))));
                continue;
            }
            QCOMPARE(to_float16(f), std::uint16_t(h));
        }
        QCOMPARE(from_float16(0x3c00), 1.f);
        QCOMPARE(from_float16(0x7bff), 65504.f);
        QCOMPARE(from_float16(0x0001), std::ldexp(1.f, -24));
        QCOMPARE(from_float16(0xc000), -2.f);
    }

    void float16_rounds_to_nearest_even() {
        QCOMPARE(to_float16(1.f + std::ldexp(1.f, -11)), std::uint16_t(0x3c00));      // a tie: to even
        QCOMPARE(to_float16(1.f + 3 * std::ldexp(1.f, -11)), std::uint16_t(0x3c02));  // a tie: to even, up
        QCOMPARE(to_float16(1.f + std::ldexp(1.f, -11) + std::ldexp(1.f, -20)), std::uint16_t(0x3c01));
        QCOMPARE(to_float16(65519.f), std::uint16_t(0x7bff));
        QCOMPARE(to_float16(65520.f), std::uint16_t(0x7c00));  // past the largest: infinity
        QCOMPARE(to_float16(-1e9f), std::uint16_t(0xfc00));
        QCOMPARE(to_float16(std::ldexp(1.f, -25)), std::uint16_t(0));                       // a tie with 0: even
        QCOMPARE(to_float16(std::ldexp(1.f, -25) * 1.5f), std::uint16_t(1));
        QCOMPARE(to_float16(std::ldexp(1.f, -26)), std::uint16_t(0));
        QCOMPARE(to_float16(-0.f), std::uint16_t(0x8000));
        QCOMPARE(to_float16(std::ldexp(1.f, -14) * (1 - std::ldexp(1.f, -12))), std::uint16_t(0x0400));  // up into normals
    }
};

QTEST_GUILESS_MAIN(TestLossScale)
#include "test_loss_scale.moc"
