// The compiled plan: fused softmax + cross-entropy, kernel choice, and no allocation per step.
#include <QtTest>

#include <algorithm>
#include <random>

#include "alloc_counter.h"
#include "graph_builder.h"
#include "device_plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"

using lf::IntList;

namespace {

// Input(6) -> Dense(5, tanh) -> Dense(3, softmax) or -> Dense(3) -> Softmax.
lf::Graph classifier(bool softmax_layer) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{6}}});
    auto h = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("tanh")}}, {in});
    if (softmax_layer) b.add("Softmax", {}, {b.add("Dense", {{"units", std::int64_t(3)}}, {h})});
    else b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("softmax")}}, {h});
    return b.graph;
}

void fill_inputs(lf::test::DevicePlan& plan, std::int64_t n) {
    std::mt19937 rng{3};
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    for (std::int64_t i = 0; i < n; ++i) plan.input()[i] = u(rng);
}

}  // namespace

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    void fused_cross_entropy_gradient_matches_finite_differences_data() {
        QTest::addColumn<bool>("softmax_layer");
        QTest::newRow("Softmax layer") << true;
        QTest::newRow("Dense(activation=softmax)") << false;
    }
    void fused_cross_entropy_gradient_matches_finite_differences() {
        QFETCH(bool, softmax_layer);
        lf::Model model(classifier(softmax_layer));
        model.init_weights(4);
        lf::test::DevicePlan plan(model, {.batch = 4, .mode = lf::PlanMode::Train});
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        const std::int32_t labels[] = {0, 2, 1, 2};
        fill_inputs(plan, 24);
        plan.train_step(labels, *loss);
        std::vector<float> analytic = model.grads();
        for (std::size_t i = 0; i < model.weights().size(); ++i) {
            float saved = model.weights()[i];
            model.weights()[i] = saved + 1e-3f;
            plan.forward();
            double up = plan.loss(labels, *loss);
            model.weights()[i] = saved - 1e-3f;
            plan.forward();
            double down = plan.loss(labels, *loss);
            model.weights()[i] = saved;
            double numeric = (up - down) / 2e-3;
            QVERIFY2(std::abs(numeric - analytic[i]) < 2e-3 + 2e-2 * std::abs(numeric),
                     qPrintable(QString("weight %1: analytic %2, numeric %3").arg(i).arg(analytic[i]).arg(numeric)));
        }
    }
    void both_softmax_spellings_train_identically() {
        lf::Model a(classifier(true)), b(classifier(false));
        a.init_weights(9);
        b.init_weights(9);
        QCOMPARE(a.weights(), b.weights());
        lf::test::DevicePlan pa(a, {.batch = 4}), pb(b, {.batch = 4});
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        const std::int32_t labels[] = {1, 1, 0, 2};
        fill_inputs(pa, 24);
        fill_inputs(pb, 24);
        double la = pa.train_step(labels, *loss), lb = pb.train_step(labels, *loss);
        QCOMPARE(la, lb);
        for (std::size_t i = 0; i < a.grads().size(); ++i) QVERIFY(std::abs(a.grads()[i] - b.grads()[i]) < 1e-6f);
    }
    // x -> a -> b, and c from x (no fan-out) or from a (fan-out 2), then Add(b, c) -> Softmax:
    // the same nodes and sizes, so the fan-out's cost is what the plan adds for a's second consumer.
    // The first consumer writes a's own gradient: one extra buffer, not one per consumer.
    void fan_out_costs_one_gradient_buffer_per_extra_consumer() {
        auto graph = [](bool fan_out) {
            GraphBuilder b;
            auto x = b.add("Input", {{"shape", IntList{6}}});
            auto a = b.add("Dense", {{"units", std::int64_t(6)}, {"activation", std::string("tanh")}}, {x});
            auto d = b.add("Dense", {{"units", std::int64_t(3)}}, {a});
            auto c = b.add("Dense", {{"units", std::int64_t(3)}}, {fan_out ? a : x});
            b.add("Softmax", {}, {b.add("Add", {}, {d, c})});
            return b.graph;
        };
        lf::Model plain(graph(false)), forked(graph(true));
        const lf::PlanOptions opt{.batch = 10, .mode = lf::PlanMode::Train};
        const std::size_t extra = lf::test::DevicePlan(forked, opt).memory().gradients - lf::test::DevicePlan(plain, opt).memory().gradients;
        QCOMPARE(extra, std::size_t(10 * 6) * sizeof(float));
    }

    // a fans out to a Reshape that ends its branch (no path to the loss) and to the classifier:
    // nothing writes the Reshape's gradient, so it must not be a's own buffer, or the other
    // consumer's gradient would pile up in it from step to step. Two backward passes over the
    // same batch and weights give the same gradients.
    void gradients_do_not_pile_up_behind_a_dead_end_view() {
        GraphBuilder b;
        auto x = b.add("Input", {{"shape", IntList{6}}});
        auto a = b.add("Dense", {{"units", std::int64_t(6)}, {"activation", std::string("tanh")}}, {x});
        b.add("Reshape", {{"target_shape", IntList{2, 3}}}, {a});
        b.add("Softmax", {}, {b.add("Dense", {{"units", std::int64_t(3)}}, {a})});
        lf::Model model(b.graph);
        model.init_weights(5);
        lf::test::DevicePlan plan(model, {.batch = 4, .mode = lf::PlanMode::Train});
        fill_inputs(plan, 4 * 6);
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        const std::int32_t labels[4] = {0, 1, 2, 1};
        plan.train_step(labels, *loss);
        const std::vector<float> first(model.grads().begin(), model.grads().end());
        plan.train_step(labels, *loss);
        QCOMPARE(std::vector<float>(model.grads().begin(), model.grads().end()), first);
        QVERIFY(std::any_of(first.begin(), first.end(), [](float g) { return g != 0.f; }));
    }

    void mlp_uses_no_reference_kernels() {
        lf::Model model(mlp_builder().graph);
        lf::test::DevicePlan plan(model, {.batch = 50, .mode = lf::PlanMode::Train});
        QVERIFY(!plan.kernels().empty());
        for (const auto& [node, impl] : plan.kernels())
            QVERIFY2(impl.find("ref") == std::string::npos, qPrintable(QString::fromStdString(node + ": " + impl)));
    }
    // oneDNN 2.6 allocates a few argument maps inside every primitive execution, so a step
    // cannot be allocation-free; what the plan must guarantee is that nothing grows per step.
    void training_steps_allocate_the_same_every_time() {
        lf::Model model(mlp_builder().graph);
        model.init_weights(1);
        lf::test::DevicePlan plan(model, {.batch = 50, .mode = lf::PlanMode::Train});
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        auto adam = lf::make_optimizer("Adam", {});
        adam->bind(model.weights().size());
        std::vector<std::int32_t> labels(50, 3);
        fill_inputs(plan, 50 * 784);
        auto step = [&] {
            plan.train_step(labels.data(), *loss);
            adam->step(model.weights().data(), model.grads().data(), model.weights().size(), 1e-3);
        };
        step();  // oneDNN may set up scratch space on the first execution
        long one = lf_test::allocations_during(step);
        QCOMPARE(lf_test::allocations_during([&] {
                     for (int i = 0; i < 10; ++i) step();
                 }),
                 10 * one);
        QVERIFY2(one < 60, qPrintable(QString::number(one)));
    }
};

QTEST_APPLESS_MAIN(TestPlan)
#include "test_plan.moc"
