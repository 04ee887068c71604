// The CPU plans' threads: the engine's choice from the work of a step (PlanOptions::threads 0),
// and the optimizer update run on the plan's threads by backward_and_update, as the trainer
// calls it (a one-thread plan must not wake the pool for its update).
#include <QtTest>

#include "core/slices.h"
#include "device_plan.h"
#include "graph_builder.h"
#include "layerforge/backend/weight_update.h"

namespace {

// Records the threads a parallel region of the update would get.
struct ThreadsSeen final : lf::WeightUpdate {
    int threads = 0;
    void step(float*, const float*, std::size_t, double) override { threads = lf::core_detail::pool_threads(); }
};

}  // namespace

class TestPlanThreads : public QObject {
    Q_OBJECT
private slots:
    void small_work_runs_on_one_thread_large_on_the_pool() {
        const lf::core_detail::ThreadCount pool(2);
        lf::Model mlp(mlp_builder({6, 6, 1}, 32).graph);
        mlp.init_weights(1);
        QCOMPARE(lf::test::DevicePlan(mlp, {.batch = 8}).plan().threads(), 1);
        // A convolution over 64x64x16 at batch 64: ~1.8 GFLOP of training work a step.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{64, 64, 16}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(32)}, {"kernel_size", std::int64_t(3)}}, {in});
        auto f = b.add("Flatten", {}, {c});
        auto d = b.add("Dense", {{"units", std::int64_t(2)}}, {f});
        b.add("Softmax", {}, {d});
        lf::Model conv(b.graph);
        conv.init_weights(1);
        QCOMPARE(lf::test::DevicePlan(conv, {.batch = 64}).plan().threads(), 2);
        QCOMPARE(lf::test::DevicePlan(mlp, {.batch = 8, .threads = 2}).plan().threads(), 2);  // set by hand
    }

    void the_update_runs_on_the_plans_threads() {
        if (lf::test::device() != "cpu") QSKIP("the CPU backend's threads");
        const lf::core_detail::ThreadCount pool(2);
        lf::Model model(mlp_builder({6, 6, 1}, 32).graph);
        model.init_weights(1);
        for (int threads : {1, 2}) {
            lf::test::DevicePlan plan(model, {.batch = 8, .threads = threads});
            ThreadsSeen rule;
            plan.plan().backward_and_update(plan.device_model(), rule, 1e-3);
            QCOMPARE(rule.threads, threads);
            QCOMPARE(lf::core_detail::pool_threads(), 2);  // the caller's count afterwards
        }
    }
};

QTEST_APPLESS_MAIN(TestPlanThreads)
#include "test_plan_threads.moc"
