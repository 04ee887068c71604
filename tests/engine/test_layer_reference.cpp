// Forward values and gradients against PyTorch (tests/fixtures/make_layer_reference.py).
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "graph_builder.h"
#include "layerforge/graph/plan.h"

using lf::IntList;
using nlohmann::json;

class TestLayerReference : public QObject {
    Q_OBJECT
    json cases_;

    static void compare(const float* got, const json& want, const char* what, double tol = 1e-5) {
        QCOMPARE(qsizetype(want.size()) > 0, true);
        for (std::size_t i = 0; i < want.size(); ++i) {
            double w = want[i].get<double>();
            if (std::abs(got[i] - w) > tol * std::max(1.0, std::abs(w)))
                QFAIL(qPrintable(QString("%1[%2]: got %3, PyTorch %4").arg(what).arg(i).arg(got[i]).arg(w)));
        }
    }

    void run(const std::string& name, const lf::Graph& g) {
        const json& c = cases_.at(name);
        lf::Model model(g);
        std::int64_t batch = c["input_shape"][0].get<std::int64_t>();
        lf::Plan plan(model, {.batch = batch, .mode = lf::PlanMode::Train, .input_grads = true});
        for (auto& [wname, values] : c["weights"].items()) {
            const lf::WeightRef* w = model.find_weight(wname);
            QVERIFY2(w, wname.c_str());
            QCOMPARE(w->size, values.size());
            for (std::size_t i = 0; i < w->size; ++i) model.weights()[w->offset + i] = values[i].get<float>();
        }
        for (std::size_t i = 0; i < c["input"].size(); ++i) plan.input()[i] = c["input"][i].get<float>();
        plan.forward();
        compare(plan.output(), c["output"], "output");
        for (std::size_t i = 0; i < c["r"].size(); ++i) plan.output_grad()[i] = c["r"][i].get<float>();
        plan.backward();
        compare(plan.input_grad(), c["input_grad"], "input_grad", 1e-4);
        for (auto& [wname, values] : c["weight_grads"].items())
            compare(model.grads().data() + model.find_weight(wname)->offset, values, wname.c_str(), 1e-4);
    }

private slots:
    void initTestCase() {
        std::ifstream f(std::string(qgetenv("LF_SOURCE_DIR")) + "/tests/fixtures/layer_reference.json");
        QVERIFY2(f, "tests/fixtures/layer_reference.json missing (set LF_SOURCE_DIR)");
        cases_ = json::parse(f)["cases"];
    }
    void dense_relu() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6}}});
        b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("relu")}}, {in});
        run("dense_relu", b.graph);
    }
    void mlp_softmax() {
        run("mlp_softmax", mlp_builder({2, 3, 2}, 5, "tanh", 3).graph);
    }
    void add_concat() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto a = b.add("Dense", {{"units", std::int64_t(3)}}, {in});
        auto s = b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("sigmoid")}}, {in});
        auto sum = b.add("Add", {}, {a, s});
        auto cat = b.add("Concatenate", {}, {a, sum});
        b.add("Dense", {{"units", std::int64_t(2)}}, {cat});
        run("add_concat", b.graph);
    }
    void reshape_softmax() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{12}}});
        auto r = b.add("Reshape", {{"target_shape", IntList{3, 4}}}, {in});
        b.add("Softmax", {}, {r});
        run("reshape_softmax", b.graph);
    }
    void activations_data() {
        QTest::addColumn<QString>("name");
        for (const char* a : {"relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "elu", "swish", "leaky_relu", "softmax"})
            QTest::newRow(a) << a;
    }
    void activations() {
        QFETCH(QString, name);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 5}}});
        if (name == "gelu_tanh") b.add("GELU", {{"approximate", true}}, {in});
        else if (name == "leaky_relu") b.add("LeakyReLU", {{"alpha", 0.3}}, {in});
        else b.add("Activation", {{"activation", name.toStdString()}}, {in});
        run("act_" + name.toStdString(), b.graph);
    }
};

QTEST_APPLESS_MAIN(TestLayerReference)
#include "test_layer_reference.moc"
