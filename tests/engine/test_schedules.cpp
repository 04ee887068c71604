#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>

#include "layerforge/train/schedule.h"
#include "lf_test_util.h"

namespace {

double lr_at(const std::string& type, const lf::Params& p, std::int64_t step, std::int64_t steps_per_epoch = 10) {
    return lf::make_schedule(type, p)->lr(0.1, step, steps_per_epoch);
}

}  // namespace

class TestSchedules : public QObject {
    Q_OBJECT
private slots:
    void constant() {
        QCOMPARE(lr_at("constant", {}, 0), 0.1);
        QCOMPARE(lr_at("constant", {}, 12345), 0.1);
    }

    void exponential_decay() {
        const lf::Params p{{"decay_steps", std::int64_t(10)}, {"decay_rate", 0.5}};
        QCOMPARE(lr_at("exponential_decay", p, 0), 0.1);
        LF_COMPARE_NEAR(lr_at("exponential_decay", p, 5), 0.1 * std::sqrt(0.5), 1e-15);  // 0.5^(5/10)
        LF_COMPARE_NEAR(lr_at("exponential_decay", p, 20), 0.025, 1e-15);               // 0.5^2
        lf::Params stairs = p;
        stairs["staircase"] = true;
        QCOMPARE(lr_at("exponential_decay", stairs, 9), 0.1);                             // floor(0.9) = 0
        LF_COMPARE_NEAR(lr_at("exponential_decay", stairs, 15), 0.05, 1e-15);           // floor(1.5) = 1
        // A whole-valued real is accepted for an integer parameter.
        LF_COMPARE_NEAR(lr_at("exponential_decay", {{"decay_steps", 10.0}, {"decay_rate", 0.5}}, 20), 0.025, 1e-15);
    }

    void step_decay() {
        const lf::Params p{{"drop", 0.5}, {"epochs_drop", std::int64_t(2)}};
        // 10 steps per epoch: steps 0..19 are epochs 0-1, step 20 starts epoch 2.
        QCOMPARE(lr_at("step_decay", p, 19), 0.1);
        QCOMPARE(lr_at("step_decay", p, 20), 0.05);
        QCOMPARE(lr_at("step_decay", p, 39), 0.05);
        QCOMPARE(lr_at("step_decay", p, 40), 0.025);
        // Defaults drop = 0.5 every 10 epochs.
        QCOMPARE(lr_at("step_decay", {}, 99), 0.1);
        QCOMPARE(lr_at("step_decay", {}, 100), 0.05);
        QCOMPARE(lr_at("step_decay", {}, 100, 5), 0.025);  // epoch 20
    }

    void cosine_decay() {
        const lf::Params p{{"decay_steps", std::int64_t(100)}};
        QCOMPARE(lr_at("cosine_decay", p, 0), 0.1);
        LF_COMPARE_NEAR(lr_at("cosine_decay", p, 25), 0.1 * 0.5 * (1 + std::cos(std::numbers::pi / 4)), 1e-15);  // 0.0853553
        LF_COMPARE_NEAR(lr_at("cosine_decay", p, 50), 0.05, 1e-15);
        LF_COMPARE_NEAR(lr_at("cosine_decay", p, 100), 0.0, 1e-15);
        LF_COMPARE_NEAR(lr_at("cosine_decay", p, 250), 0.0, 1e-15);  // stays at the end value
        const lf::Params a{{"decay_steps", std::int64_t(100)}, {"alpha", 0.1}};
        LF_COMPARE_NEAR(lr_at("cosine_decay", a, 50), 0.1 * (0.9 * 0.5 + 0.1), 1e-15);  // 0.055
        LF_COMPARE_NEAR(lr_at("cosine_decay", a, 300), 0.01, 1e-15);
    }

    void bad_schedules_are_input_errors() {
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("linear", {}), "linear", "cosine_decay");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("exponential_decay", {{"decay_rate", 0.5}}), "exponential_decay",
                              "decay_steps", "required");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("cosine_decay", {{"decay_steps", std::int64_t(0)}}), "decay_steps",
                              ">= 1");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("cosine_decay", {{"decay_steps", 10.5}}), "decay_steps", "integer");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("cosine_decay", {{"decay_steps", std::int64_t(5)}, {"alpha", 2.0}}),
                              "alpha", "[0, 1]");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("constant", {{"drop", 0.5}}), "constant", "drop");
        LF_EXPECT_INPUT_ERROR(lf::make_schedule("step_decay", {{"drop", -1.0}}), "step_decay", "drop", "> 0");
    }

    void early_stopping_patience_zero() {
        lf::EarlyStopping es({});
        QCOMPARE(es.monitor(), std::string("val_loss"));
        QVERIFY(!es.on_epoch_end(0, 1.0));
        QVERIFY(es.last_improved());
        QVERIFY(!es.on_epoch_end(1, 0.9));
        QVERIFY(es.on_epoch_end(2, 0.95));  // first non-improvement stops
        QVERIFY(!es.last_improved());
        QCOMPARE(es.best(), 0.9);
        QCOMPARE(es.best_epoch(), std::int64_t(1));
    }

    void early_stopping_patience_and_min_delta() {
        lf::EarlyStopping es({{"patience", std::int64_t(2)}, {"min_delta", 0.1}});
        QVERIFY(!es.on_epoch_end(0, 1.0));
        QVERIFY(!es.on_epoch_end(1, 0.95));  // better, but not by more than 0.1: wait 1
        QVERIFY(!es.last_improved());
        QVERIFY(!es.on_epoch_end(2, 0.85));  // 0.85 + 0.1 < 1.0: improvement, wait 0
        QVERIFY(es.last_improved());
        QVERIFY(!es.on_epoch_end(3, 0.80));  // wait 1
        QVERIFY(es.on_epoch_end(4, 0.84));   // wait 2 = patience: stop
        QCOMPARE(es.best(), 0.85);
        QCOMPARE(es.best_epoch(), std::int64_t(2));
    }

    void early_stopping_maximizes_accuracy() {
        lf::EarlyStopping es({{"monitor", std::string("val_accuracy")}, {"patience", std::int64_t(2)},
                              {"restore_best_weights", true}});
        QVERIFY(es.restore_best_weights());
        QVERIFY(!es.on_epoch_end(0, 0.5));
        QVERIFY(!es.on_epoch_end(1, 0.6));
        QVERIFY(es.last_improved());
        QVERIFY(!es.on_epoch_end(2, 0.55));
        QVERIFY(es.on_epoch_end(3, 0.58));
        QCOMPARE(es.best(), 0.6);
        QCOMPARE(es.best_epoch(), std::int64_t(1));
        // An explicit mode wins over the name.
        lf::EarlyStopping low({{"monitor", std::string("val_accuracy")}, {"mode", std::string("min")}});
        QVERIFY(!low.on_epoch_end(0, 0.5));
        QVERIFY(low.on_epoch_end(1, 0.6));
        lf::EarlyStopping high({{"monitor", std::string("loss")}, {"mode", std::string("max")}});
        QVERIFY(!high.on_epoch_end(0, 0.5));
        QVERIFY(!high.on_epoch_end(1, 0.6));
        QVERIFY(high.last_improved());
    }

    void early_stopping_first_epoch_counts_and_nan_does_not() {
        lf::EarlyStopping es({{"patience", std::int64_t(1)}});
        QVERIFY(!es.on_epoch_end(0, 1e30));
        QVERIFY(es.last_improved());
        QVERIFY(es.on_epoch_end(1, std::numeric_limits<double>::quiet_NaN()));
        QCOMPARE(es.best(), 1e30);
    }

    void early_stopping_bad_params() {
        LF_EXPECT_INPUT_ERROR(lf::EarlyStopping({{"patience", std::int64_t(-1)}}), "EarlyStopping", "patience");
        LF_EXPECT_INPUT_ERROR(lf::EarlyStopping({{"mode", std::string("up")}}), "EarlyStopping", "mode", "auto");
        LF_EXPECT_INPUT_ERROR(lf::EarlyStopping({{"baseline", 0.5}}), "EarlyStopping", "baseline");
    }

    // Default min_delta 1e-4: a drop of 5e-5 is no improvement, so it counts towards patience.
    void reduce_on_plateau_min_delta() {
        lf::ReduceLROnPlateau r({{"factor", 0.5}, {"patience", std::int64_t(2)}});
        QCOMPARE(r.scale(), 1.0);
        QCOMPARE(r.on_epoch_end(1.0, 0.1), 1.0);      // first value: improvement
        QCOMPARE(r.on_epoch_end(0.99995, 0.1), 1.0);  // wait 1
        QCOMPARE(r.on_epoch_end(0.99992, 0.1), 0.5);  // still within 1e-4 of 1.0: wait 2, reduce
        QCOMPARE(r.scale(), 0.5);
    }

    void reduce_on_plateau_reduces_after_patience() {
        lf::ReduceLROnPlateau r({{"factor", 0.5}, {"patience", std::int64_t(2)}, {"min_delta", 0.0}});
        const double base = 0.1;
        QCOMPARE(r.on_epoch_end(1.0, base), 1.0);  // best
        QCOMPARE(r.on_epoch_end(1.0, base), 1.0);  // wait 1
        QCOMPARE(r.on_epoch_end(1.0, base), 0.5);  // wait 2: 0.1 -> 0.05
        QCOMPARE(r.on_epoch_end(1.0, base * r.scale()), 0.5);   // wait 1
        QCOMPARE(r.on_epoch_end(1.0, base * r.scale()), 0.25);  // wait 2: 0.05 -> 0.025
        QCOMPARE(r.on_epoch_end(0.5, base * r.scale()), 0.25);  // improvement resets wait
        QCOMPARE(r.on_epoch_end(0.6, base * r.scale()), 0.25);
        QCOMPARE(r.scale(), 0.25);
    }

    void reduce_on_plateau_cooldown() {
        lf::ReduceLROnPlateau r({{"factor", 0.5}, {"patience", std::int64_t(1)}, {"cooldown", std::int64_t(2)}});
        double lr = 0.1;
        QCOMPARE(r.on_epoch_end(1.0, lr), 1.0);
        QCOMPARE(r.on_epoch_end(1.0, lr), 0.5);  // wait 1 = patience: reduce, 2 epochs of cooldown
        lr = 0.05;
        QCOMPARE(r.on_epoch_end(1.0, lr), 0.5);   // cooldown 2 -> 1: no counting
        QCOMPARE(r.on_epoch_end(1.0, lr), 0.25);  // cooldown 1 -> 0, counting again: wait 1: reduce
        lr = 0.025;
        QCOMPARE(r.on_epoch_end(1.0, lr), 0.25);
        QCOMPARE(r.on_epoch_end(1.0, lr), 0.125);
    }

    void reduce_on_plateau_min_lr() {
        lf::ReduceLROnPlateau r({{"patience", std::int64_t(0)}, {"min_lr", 0.005}});
        const double base = 0.1;
        QCOMPARE(r.on_epoch_end(1.0, base), 1.0);
        LF_COMPARE_NEAR(r.on_epoch_end(1.0, base * r.scale()), 0.1, 1e-15);   // 0.1 -> 0.01
        LF_COMPARE_NEAR(r.on_epoch_end(1.0, base * r.scale()), 0.05, 1e-15);  // 0.001 clamps to 0.005
        LF_COMPARE_NEAR(r.on_epoch_end(1.0, base * r.scale()), 0.05, 1e-15);  // already at min_lr
    }

    void reduce_on_plateau_accuracy_and_errors() {
        lf::ReduceLROnPlateau r({{"monitor", std::string("val_accuracy")}, {"patience", std::int64_t(1)}});
        QCOMPARE(r.monitor(), std::string("val_accuracy"));
        QCOMPARE(r.on_epoch_end(0.5, 0.1), 1.0);
        QCOMPARE(r.on_epoch_end(0.6, 0.1), 1.0);  // rising accuracy is an improvement
        LF_COMPARE_NEAR(r.on_epoch_end(0.6, 0.1), 0.1, 1e-15);
        LF_EXPECT_INPUT_ERROR(lf::ReduceLROnPlateau({{"factor", 1.0}}), "ReduceLROnPlateau", "factor", "(0, 1)");
        LF_EXPECT_INPUT_ERROR(lf::ReduceLROnPlateau({{"cooldown", std::int64_t(-2)}}), "cooldown");
        LF_EXPECT_INPUT_ERROR(lf::ReduceLROnPlateau({{"min_lr", -1.0}}), "min_lr", ">= 0");
    }
};

QTEST_APPLESS_MAIN(TestSchedules)
#include "test_schedules.moc"
