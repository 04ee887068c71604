// Plan::profile(): every step's forward and backward time and memory, kept by the plan itself
// and reported by the trainer's events.
#include <QtTest>

#include <numeric>

#include "device_plan.h"
#include "graph_builder.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/trainer.h"
#include "synthetic_data.h"

namespace {

const lf::LayerProfile* find(const lf::PlanProfile& p, const std::string& node) {
    for (const lf::LayerProfile& l : p)
        if (l.node == node) return &l;
    return nullptr;
}

struct Last : lf::TrainObserver {
    lf::TrainEvent finished, epoch;
    void on_event(const lf::TrainEvent& e) override {
        if (e.kind == lf::EventKind::Finished) finished = e;
        if (e.kind == lf::EventKind::EpochEnd) epoch = e;
    }
};

}  // namespace

class TestPlanProfile : public QObject {
    Q_OBJECT
private slots:
    void counts_every_pass_of_every_running_step() {
        lf::Model model(mlp_builder({6, 6, 1}, 32).graph);
        model.init_weights(1);
        lf::test::DevicePlan plan(model, {.batch = 8, .mode = lf::PlanMode::Train});
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        const std::int32_t labels[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        const lf::PlanProfile& before = plan.plan().profile();
        QCOMPARE(before.size(), std::size_t(5));  // input, flatten, two Dense, softmax: the schedule's steps
        for (const lf::LayerProfile& l : before) QCOMPARE(l.forward_ns + l.backward_ns + l.forwards + l.backwards, 0);
        for (int i = 0; i < 3; ++i) plan.train_step(labels, *loss);

        const lf::PlanProfile& p = plan.plan().profile();
        const lf::LayerProfile* hidden = find(p, "dense_2");
        QVERIFY(hidden);
        QCOMPARE(hidden->forwards, 3);
        QCOMPARE(hidden->backwards, 3);
        QVERIFY(hidden->forward_ns > 0);
        QVERIFY(hidden->backward_ns > 0);
        QCOMPARE(find(p, "input_0")->forwards, 0);  // an Input runs no kernel
        QCOMPARE(find(p, "flatten_1")->forwards, 0);  // a view of its input
        // The output Dense holds 8 x 10 outputs and their gradient at least; the hidden one its
        // 8 x 32 outputs and their gradient.
        QVERIFY(find(p, "dense_3")->bytes >= 2 * 8 * 10 * sizeof(float));
        QVERIFY(hidden->bytes >= 2 * 8 * 32 * sizeof(float));
        // Every buffer is charged to one step: with the shared scratchpad they are the plan's memory.
        const std::size_t steps = std::accumulate(p.begin(), p.end(), std::size_t(0),
                                                  [](std::size_t s, const lf::LayerProfile& l) { return s + l.bytes; });
        const lf::MemoryBreakdown m = plan.memory();
        QVERIFY(steps <= m.total());
        QVERIFY(steps >= m.activations + m.gradients);
    }

    void inference_passes_have_no_backward() {
        lf::Model model(mlp_builder({4}, 8).graph);
        model.init_weights(1);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Infer});
        plan.forward();
        plan.forward();
        const lf::LayerProfile* d = find(plan.plan().profile(), "dense_2");
        QCOMPARE(d->forwards, 2);
        QCOMPARE(d->backwards, 0);
        QCOMPARE(d->backward_ns, 0);
    }

    void trainer_events_carry_the_training_plans_profile() {
        lf::Model model(mlp_builder({4}, 16, "relu", 3).graph);
        model.init_weights(2);
        lf::TrainingConfig config;
        config.epochs = 2;
        config.batch_size = 10;  // 40 samples: 4 full batches per epoch, no remainder plan
        lf::Trainer trainer(model, config);
        Last last;
        trainer.add_observer(&last);
        trainer.set_log_every(1);
        QCOMPARE(trainer.fit(synthetic(40), nullptr).status, lf::RunStatus::Finished);
        const lf::LayerProfile* epoch1 = find(last.epoch.profile, "dense_3");
        const lf::LayerProfile* end = find(last.finished.profile, "dense_3");
        QVERIFY(epoch1 && end);
        QCOMPARE(end->forwards, 8);  // 2 epochs x 4 steps; validation would run on inference plans
        QCOMPARE(end->backwards, 8);
        QVERIFY(end->forward_ns > 0 && end->backward_ns > 0);
        qint64 total = 0;
        for (const lf::LayerProfile& l : last.finished.profile) total += l.forward_ns + l.backward_ns;
        QVERIFY(total > end->forward_ns);                    // other layers took time too
        QVERIFY(double(total) / 1e9 < last.finished.elapsed_seconds);  // and together less than the run
    }
};

QTEST_GUILESS_MAIN(TestPlanProfile)
#include "test_plan_profile.moc"
