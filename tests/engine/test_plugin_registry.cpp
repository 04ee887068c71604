// The engine's plugin registration API (Qt-free): a plugin's layers, losses and metrics are
// added all or none; names that exist already, or repeat within the plugin, are refused with
// a message; a plain-loop kernel layer runs in a plan with a correct backward pass.
#include <QtTest>

#include <algorithm>

#include "gradcheck.h"
#include "graph_builder.h"
#include "layerforge/plugins/registrar.h"
#include "lf_test_util.h"

using lf::IntList;

namespace {

// y = scale * x elementwise, scale a trainable per-sample-element vector: small enough to check by hand.
class ScaleKernel : public lf::LayerKernel {
public:
    explicit ScaleKernel(const lf::KernelSetup& s) : s_(s), n_(s.output.elements()) {}
    void forward() override {
        for (std::int64_t i = 0; i < s_.batch * n_; ++i) s_.out[i] = s_.w[0][i % n_] * s_.in[0][i];
    }
    void backward() override {
        std::fill(s_.w_grad[0], s_.w_grad[0] + n_, 0.f);
        for (std::int64_t i = 0; i < s_.batch * n_; ++i) {
            s_.w_grad[0][i % n_] += s_.out_grad[i] * s_.in[0][i];
            if (s_.in_grad[0]) s_.in_grad[0][i] = s_.out_grad[i] * s_.w[0][i % n_];
        }
    }

private:
    lf::KernelSetup s_;
    std::int64_t n_;
};

lf::PluginLayer scale_layer(const std::string& type) {
    lf::LayerSpec s;
    s.type = type;
    s.category = "Test plugin";
    s.infer = [](const lf::Params&, const std::vector<lf::Shape>& in) {
        lf::LayerInfo info{.output = in[0]};
        info.weights = {{"scale", in[0], lf::Init::Ones, 1, 1}};
        return info;
    };
    return {s, [](const lf::KernelSetup& k) { return std::make_unique<ScaleKernel>(k); }};
}

class ConstantLoss : public lf::Loss {
public:
    std::string name() const override { return "TestConstantLoss"; }
    double compute(const lf::LossBatch& b, float* grad) const override {
        if (grad) std::fill(grad, grad + b.n * b.c, 0.f);
        return 42;
    }
};

class CountMetric : public lf::Metric {
public:
    std::string name() const override { return "test_count"; }
    void reset() override { n_ = 0; }
    void update(const float*, const std::int32_t*, std::int64_t n, std::int64_t) override { n_ += n; }
    double result() const override { return double(n_); }
    std::vector<double> state() const override { return {double(n_)}; }
    void set_state(const std::vector<double>& s) override { n_ = std::int64_t(s.at(0)); }

private:
    std::int64_t n_ = 0;
};

lf::LossSpec constant_loss(const std::string& type) {
    return {.type = type, .help = "", .make = [](const lf::Params&) { return std::make_unique<ConstantLoss>(); }};
}
lf::MetricSpec count_metric(const std::string& name) {
    return {.name = name, .help = "", .make = [] { return std::make_unique<CountMetric>(); }};
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const lf::PluginRecord* record(const std::string& plugin) {
    for (const auto& r : lf::registered_plugins())
        if (r.name == plugin) return &r;
    return nullptr;
}

}  // namespace

class TestPluginRegistry : public QObject {
    Q_OBJECT

private slots:
    void interface_version_is_one() { QCOMPARE(lf::kPluginInterfaceVersion, 1); }

    void registers_layers_losses_and_metrics() {
        lf::PluginRegistrar r("Good", "2.1", "/tmp/libgood.so");
        r.add_layer(scale_layer("TestScale"));
        r.add_loss(constant_loss("TestConstantLoss"));
        r.add_metric(count_metric("test_count"));
        const lf::PluginRecord rec = r.commit();
        QCOMPARE(rec.name, std::string("Good"));
        QCOMPARE(rec.version, std::string("2.1"));
        QCOMPARE(rec.layers, std::vector<std::string>{"TestScale"});
        QCOMPARE(rec.losses, std::vector<std::string>{"TestConstantLoss"});
        QCOMPARE(rec.metrics, std::vector<std::string>{"test_count"});
        QVERIFY(record("Good"));

        const lf::LayerSpec* spec = lf::LayerRegistry::instance().find("TestScale");
        QVERIFY(spec);
        QCOMPARE(spec->category, std::string("Test plugin"));
        QVERIFY(spec->kernel);
        QCOMPARE(spec->op, lf::LayerOp::Plugin);
        QVERIFY(has(lf::loss_types(), "TestConstantLoss"));
        QCOMPARE(lf::make_loss("TestConstantLoss")->compute({}, nullptr), 42.0);
        QVERIFY(has(lf::metric_names(), "test_count"));
        auto m = lf::make_metric("test_count");
        m->update(nullptr, nullptr, 5, 3);
        QCOMPARE(m->result(), 5.0);
    }

    void kernel_layer_runs_forward_and_backward_in_a_plan() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{3}}});
        b.add("TestScale", {}, {in});
        lf::Model model(b.graph);
        model.init_weights(1);
        QCOMPARE(model.weights(), (std::vector<float>{1, 1, 1}));  // Init::Ones
        model.weights() = {2, -1, 0.5f};
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Infer});
        const float x[] = {1, 2, 3, 4, 5, 6};
        std::copy(x, x + 6, plan.input());
        plan.forward();
        const std::vector<float> y(plan.output(), plan.output() + 6);
        QCOMPARE(y, (std::vector<float>{2, -2, 1.5f, 8, -5, 3}));

        check_graph_gradients(b.graph);
    }

    void clash_with_a_builtin_layer_refuses_the_whole_plugin() {
        lf::PluginRegistrar r("ClashLayer");
        r.add_layer(scale_layer("TestFreshBeforeClash"));
        r.add_layer(scale_layer("Dense"));
        LF_EXPECT_INPUT_ERROR(r.commit(), "plugin 'ClashLayer'", "'Dense'", "built-in");
        QVERIFY(!lf::LayerRegistry::instance().find("TestFreshBeforeClash"));
        QVERIFY(!record("ClashLayer"));
    }

    void clash_with_builtin_loss_and_metric() {
        lf::PluginRegistrar loss("ClashLoss");
        loss.add_loss(constant_loss("MeanSquaredError"));
        LF_EXPECT_INPUT_ERROR(loss.commit(), "loss 'MeanSquaredError'", "built-in");
        lf::PluginRegistrar metric("ClashMetric");
        metric.add_metric(count_metric("accuracy"));
        LF_EXPECT_INPUT_ERROR(metric.commit(), "metric 'accuracy'", "built-in");
        lf::PluginRegistrar pattern("ClashPattern");  // top<K>_accuracy names are built-in too
        pattern.add_metric(count_metric("top3_accuracy"));
        LF_EXPECT_INPUT_ERROR(pattern.commit(), "metric 'top3_accuracy'");
    }

    void clash_with_an_earlier_plugin_names_it() {
        lf::PluginRegistrar first("First");
        first.add_layer(scale_layer("TestOwnedByFirst"));
        first.add_metric(count_metric("test_owned_metric"));
        first.commit();
        lf::PluginRegistrar second("Second");
        second.add_layer(scale_layer("TestOwnedByFirst"));
        LF_EXPECT_INPUT_ERROR(second.commit(), "plugin 'Second'", "'TestOwnedByFirst'", "plugin 'First'");
        lf::PluginRegistrar third("Third");
        third.add_metric(count_metric("test_owned_metric"));
        LF_EXPECT_INPUT_ERROR(third.commit(), "metric 'test_owned_metric'", "plugin 'First'");
    }

    void repeated_name_within_a_plugin() {
        lf::PluginRegistrar r("Twice");
        r.add_loss(constant_loss("TestTwiceLoss"));
        r.add_loss(constant_loss("TestTwiceLoss"));
        LF_EXPECT_INPUT_ERROR(r.commit(), "loss 'TestTwiceLoss' is added twice");
        QVERIFY(!has(lf::loss_types(), "TestTwiceLoss"));
    }

    void incomplete_layers_are_refused() {
        lf::PluginLayer no_kernel = scale_layer("TestNoKernel");
        no_kernel.kernel = nullptr;
        lf::PluginRegistrar a("NoKernel");
        a.add_layer(no_kernel);
        LF_EXPECT_INPUT_ERROR(a.commit(), "'TestNoKernel' has no CPU kernel");
        lf::PluginLayer no_shape = scale_layer("TestNoShape");
        no_shape.spec.infer = nullptr;
        lf::PluginRegistrar b("NoShape");
        b.add_layer(no_shape);
        LF_EXPECT_INPUT_ERROR(b.commit(), "'TestNoShape' has no shape rule");
    }

    void unknown_names_still_list_the_valid_ones() {
        LF_EXPECT_INPUT_ERROR(lf::make_loss("NoSuchLoss"), "unknown loss 'NoSuchLoss'", "MeanSquaredError");
        LF_EXPECT_INPUT_ERROR(lf::make_metric("no_such_metric"), "unknown metric 'no_such_metric'");
    }
};

QTEST_APPLESS_MAIN(TestPluginRegistry)
#include "test_plugin_registry.moc"
