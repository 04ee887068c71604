// The example plugins: the tutorial's LinearLayer (zero-initialised, gradient-checked), its
// MeanSquaredError loss and SparseCategoricalAccuracy metric, and Swish with a learnable beta
// (gradient-checked); a small model built from plugin layers trains and checkpoints like one
// of built-in layers.
#include <QtTest>

#include <cmath>
#include <random>

#include "gradcheck.h"
#include "graph_builder.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"
#include "plugin_host.h"
#include "synthetic_data.h"

using lf::IntList;

namespace {

// Input(4) -> Dense(12) -> Swish -> LinearLayer(3) -> Softmax: node ids input_0, dense_1,
// swish_2, linearlayer_3, softmax_4.
lf::Graph plugin_mlp() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{4}}});
    auto d = b.add("Dense", {{"units", std::int64_t(12)}}, {in});
    auto s = b.add("Swish", {}, {d});
    auto l = b.add("LinearLayer", {{"units", std::int64_t(3)}}, {s});
    b.add("Softmax", {}, {l});
    return b.graph;
}

lf::TrainingConfig adam(std::int64_t epochs, const std::string& loss = "SparseCategoricalCrossentropy") {
    lf::TrainingConfig c;
    c.optimizer = {"Adam", {{"learning_rate", 0.02}}};
    c.loss = loss;
    c.metrics = {"accuracy", "SparseCategoricalAccuracy"};
    c.epochs = epochs;
    c.batch_size = 20;
    c.seed = 3;
    return c;
}

double metric(const lf::Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    return std::nan("");
}

}  // namespace

class TestExamplePlugins : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        lf::plugins::PluginHost& host = lf::plugins::PluginHost::instance();
        host.loadDirs({qEnvironmentVariable("LF_PLUGIN_BUILD_DIR")});
        QCOMPARE(host.loaded().size(), 2);
    }

    void linear_layer_starts_at_zero() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{5}}});
        b.add("LinearLayer", {{"units", std::int64_t(2)}}, {in});
        lf::Model model(b.graph);
        QCOMPARE(model.weight_refs().size(), std::size_t(2));
        QCOMPARE(model.weight_refs()[0].name, std::string("linearlayer_1/w"));
        QCOMPARE(model.weight_refs()[0].shape, (lf::Shape{5, 2}));
        QCOMPARE(model.weight_refs()[1].name, std::string("linearlayer_1/b"));
        model.weights().assign(model.weights().size(), 7.f);
        model.init_weights(123);
        for (float w : model.weights()) QCOMPARE(w, 0.f);
    }

    void linear_layer_computes_x_w_plus_b() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2}}});
        b.add("LinearLayer", {{"units", std::int64_t(2)}}, {in});
        lf::Model model(b.graph);
        model.weights() = {1, 2, 3, 4, 0.5f, -1};  // w = [[1, 2], [3, 4]], b = [0.5, -1]
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Infer});
        const float x[] = {1, 1, 2, -1};
        std::copy(x, x + 4, plan.input());
        plan.forward();
        QCOMPARE(std::vector<float>(plan.output(), plan.output() + 4), (std::vector<float>{4.5f, 5, -0.5f, -1}));
    }

    void linear_layer_gradients() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6}}});
        b.add("LinearLayer", {{"units", std::int64_t(4)}}, {in});
        check_graph_gradients(b.graph);
    }

    void swish_gradients_data() {
        QTest::addColumn<bool>("learn_beta");
        QTest::addColumn<QList<qlonglong>>("dims");
        QTest::newRow("learned beta, vector") << true << QList<qlonglong>{7};
        QTest::newRow("learned beta, image") << true << QList<qlonglong>{3, 2, 4};
        QTest::newRow("fixed beta") << false << QList<qlonglong>{5};
    }
    void swish_gradients() {
        QFETCH(bool, learn_beta);
        QFETCH(QList<qlonglong>, dims);
        const IntList shape(dims.begin(), dims.end());
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", shape}});
        b.add("Swish", {{"learn_beta", learn_beta}}, {in});
        lf::Model model(b.graph);
        QCOMPARE(model.weights().size(), learn_beta ? std::size_t(shape.back()) : std::size_t(0));
        check_graph_gradients(b.graph);
    }

    void swish_with_beta_one_is_the_builtin_swish_activation() {
        GraphBuilder a, b;
        a.add("Swish", {}, {a.add("Input", {{"shape", IntList{8}}})});
        b.add("Activation", {{"activation", std::string("swish")}}, {b.add("Input", {{"shape", IntList{8}}})});
        lf::Model ma(a.graph), mb(b.graph);
        ma.init_weights(1);  // beta = 1
        lf::test::DevicePlan pa(ma, {.batch = 2, .mode = lf::PlanMode::Infer}), pb(mb, {.batch = 2, .mode = lf::PlanMode::Infer});
        for (int i = 0; i < 16; ++i) pa.input()[i] = pb.input()[i] = float(i - 8) * 0.7f;
        pa.forward();
        pb.forward();
        for (int i = 0; i < 16; ++i) LF_COMPARE_NEAR(pa.output()[i], pb.output()[i], 1e-5);
    }

    void tutorial_loss_equals_the_builtin_mean_squared_error() {
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0, 1);
        std::vector<float> out(4 * 3);
        for (float& v : out) v = u(rng);
        const std::int32_t labels[] = {0, 2, 1, 2};
        lf::LossBatch batch{out.data(), nullptr, labels, 4, 3};
        std::vector<float> g_plugin(12), g_builtin(12);
        const double plugin = lf::make_loss("TutorialMeanSquaredError")->compute(batch, g_plugin.data());
        const double builtin = lf::make_loss("MeanSquaredError")->compute(batch, g_builtin.data());
        LF_COMPARE_NEAR(plugin, builtin, 1e-9);
        for (int i = 0; i < 12; ++i) LF_COMPARE_NEAR(g_plugin[i], g_builtin[i], 1e-7);
        // By hand for one row: output (0.5, 0.5) with label 1 -> ((0.5)^2 + (0.5)^2) / 2.
        const float row[] = {0.5f, 0.5f};
        const std::int32_t one[] = {1};
        LF_COMPARE_NEAR(lf::make_loss("TutorialMeanSquaredError")->compute({row, nullptr, one, 1, 2}, nullptr), 0.25, 1e-9);
        LF_EXPECT_INPUT_ERROR(lf::make_loss("TutorialMeanSquaredError", {{"from_logits", true}}), "takes no parameters");
    }

    void tutorial_metric_counts_argmax_hits() {
        auto m = lf::make_metric("SparseCategoricalAccuracy");
        QCOMPARE(m->name(), std::string("SparseCategoricalAccuracy"));
        const float out[] = {0.1f, 0.7f, 0.2f,   // argmax 1
                             0.5f, 0.5f, 0.0f,   // tie: the first maximum, 0
                             0.2f, 0.3f, 0.5f};  // argmax 2
        const std::int32_t labels[] = {1, 1, 2};
        m->update(out, labels, 3, 3);
        LF_COMPARE_NEAR(m->result(), 2.0 / 3.0, 1e-12);
        const std::vector<double> state = m->state();
        auto resumed = lf::make_metric("SparseCategoricalAccuracy");
        resumed->set_state(state);
        resumed->update(out, labels, 1, 3);  // one more hit
        LF_COMPARE_NEAR(resumed->result(), 3.0 / 4.0, 1e-12);
        m->reset();
        QCOMPARE(m->result(), 0.0);
        LF_EXPECT_INPUT_ERROR(resumed->set_state({1}), "needs 2 values");
    }

    void a_model_of_plugin_layers_trains_and_checkpoints() {
        const lf::TensorDataset train = synthetic(400, 1), test = synthetic(200, 2);
        lf::Model model(plugin_mlp());
        model.init_weights(7);
        lf::Trainer trainer(model, adam(8));
        const double before = trainer.evaluate(test).metrics[0].second;
        const lf::FitResult fit = trainer.fit(train, &test);
        QCOMPARE(fit.status, lf::RunStatus::Finished);
        const lf::Metrics& last = fit.history.back();
        QVERIFY2(metric(last, "val_loss") < 0.6 * before, qPrintable(QString("val_loss %1, before %2").arg(metric(last, "val_loss")).arg(before)));
        QVERIFY2(metric(last, "val_accuracy") > 0.85, qPrintable(QString::number(metric(last, "val_accuracy"))));
        // The plugin metric agrees with the built-in accuracy on every epoch.
        for (const lf::Metrics& epoch : fit.history)
            LF_COMPARE_NEAR(metric(epoch, "val_SparseCategoricalAccuracy"), metric(epoch, "val_accuracy"), 1e-12);
        const lf::WeightRef* beta = model.find_weight("swish_2/beta");
        QVERIFY(beta);
        int moved = 0;
        for (std::size_t i = 0; i < beta->size; ++i) moved += std::abs(model.weights()[beta->offset + i] - 1.f) > 1e-3f;
        QVERIFY2(moved > 0, "Swish's beta did not learn");

        // A checkpoint restores into a fresh model: same weights and optimizer, same predictions.
        const std::string blob = lf::encode_checkpoint(model, trainer.optimizer(), lf::TrainState{});
        lf::Model restored(plugin_mlp());
        lf::Trainer restored_trainer(restored, adam(1));
        lf::restore_checkpoint(restored, restored_trainer.optimizer(), blob, "test checkpoint");
        QCOMPARE(restored.weights(), model.weights());
        QCOMPARE(restored_trainer.predict(test), trainer.predict(test));
        QVERIFY(lf::weight_differences(restored, lf::parse_safetensors(lf::encode_weights(model), "w")).empty());
    }

    void the_tutorial_loss_trains_a_model() {
        const lf::TensorDataset train = synthetic(300, 3);
        lf::Model model(plugin_mlp());
        model.init_weights(9);
        lf::Trainer trainer(model, adam(6, "TutorialMeanSquaredError"));
        const lf::FitResult fit = trainer.fit(train, nullptr);
        QCOMPARE(fit.status, lf::RunStatus::Finished);
        const double first = metric(fit.history.front(), "loss"), last = metric(fit.history.back(), "loss");
        QVERIFY2(last < 0.6 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
        QVERIFY(metric(fit.history.back(), "SparseCategoricalAccuracy") > 0.7);
    }
};

QTEST_APPLESS_MAIN(TestExamplePlugins)
#include "test_example_plugins.moc"
#include "run_status_text.h"
