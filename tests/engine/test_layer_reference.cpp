// Forward values and gradients against PyTorch (tests/fixtures/make_layer_reference.py).
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "graph_builder.h"
#include "device_plan.h"

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
        lf::test::DevicePlan plan(model, {.batch = batch, .mode = lf::PlanMode::Train, .input_grads = true});
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
        for (const char* a : {"relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "elu", "swish", "leaky_relu", "softmax",
                              "hard_sigmoid", "hard_swish"})
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

    void relu_parameters_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("max_value");
        QTest::addColumn<double>("negative_slope");
        QTest::addColumn<double>("threshold");
        QTest::newRow("relu6") << "relu6" << 6.0 << 0.0 << 0.0;
        QTest::newRow("relu_capped_leaky") << "relu_capped_leaky" << 1.5 << 0.1 << 0.0;
        QTest::newRow("relu_threshold") << "relu_threshold" << 1.2 << 0.3 << 0.5;
    }
    void relu_parameters() {
        QFETCH(QString, name);
        QFETCH(double, max_value);
        QFETCH(double, negative_slope);
        QFETCH(double, threshold);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 5}}});
        b.add("ReLU", {{"max_value", max_value}, {"negative_slope", negative_slope}, {"threshold", threshold}}, {in});
        run(name.toStdString(), b.graph);
    }

    // Convolution, pooling and normalisation: one layer after Input unless said otherwise.
    void single_layer(const std::string& name, IntList shape, const std::string& type, lf::Params params) {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", std::move(shape)}});
        b.add(type, std::move(params), {in});
        run(name, b.graph);
    }
    void conv_same_relu() {
        single_layer("conv_same_relu", {6, 5, 2}, "Conv2D",
                     {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)}, {"padding", std::string("same")},
                      {"activation", std::string("relu")}});
    }
    void conv_even_kernel_stride2_same() {
        single_layer("conv_even_kernel_stride2_same", {7, 6, 2}, "Conv2D",
                     {{"filters", std::int64_t(4)}, {"kernel_size", IntList{4, 2}}, {"strides", std::int64_t(2)},
                      {"padding", std::string("same")}});
    }
    void conv_dilated_valid() {
        single_layer("conv_dilated_valid", {7, 8, 2}, "Conv2D",
                     {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"dilation_rate", std::int64_t(2)},
                      {"use_bias", false}, {"activation", std::string("tanh")}});
    }
    void depthwise_stride2_same() {
        single_layer("depthwise_stride2_same", {6, 7, 3}, "DepthwiseConv2D",
                     {{"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", std::string("same")},
                      {"depth_multiplier", std::int64_t(2)}});
    }
    void transpose_stride2_same() {
        single_layer("transpose_stride2_same", {3, 4, 2}, "Conv2DTranspose",
                     {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)},
                      {"padding", std::string("same")}});
    }
    void transpose_valid() {
        single_layer("transpose_valid", {3, 3, 2}, "Conv2DTranspose",
                     {{"filters", std::int64_t(2)}, {"kernel_size", IntList{2, 3}}, {"strides", IntList{2, 1}}});
    }
    void transpose_output_padding() {
        single_layer("transpose_same_output_padding", {3, 4, 2}, "Conv2DTranspose",
                     {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)},
                      {"padding", std::string("same")}, {"output_padding", IntList{1, 0}}});
        single_layer("transpose_valid_output_padding", {2, 3, 2}, "Conv2DTranspose",
                     {{"filters", std::int64_t(3)}, {"kernel_size", IntList{3, 2}}, {"strides", IntList{3, 2}},
                      {"output_padding", IntList{2, 1}}});
    }
    void max_pool_same() {
        single_layer("max_pool_same", {5, 7, 2}, "MaxPool2D",
                     {{"pool_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", std::string("same")}});
    }
    void avg_pool_same() {
        single_layer("avg_pool_same", {5, 7, 2}, "AveragePooling2D", {{"padding", std::string("same")}});
    }
    void global_pooling() {
        single_layer("global_avg_pool", {4, 5, 3}, "GlobalAveragePooling2D", {});
        single_layer("global_max_pool", {4, 5, 3}, "GlobalMaxPooling2D", {});
    }
    void batch_norm_train() { single_layer("batch_norm_train", {3, 3, 4}, "BatchNormalization", {}); }
    void zero_padding() { single_layer("zero_padding", {2, 3, 2}, "ZeroPadding2D", {{"padding", IntList{1, 2, 0, 1}}}); }
    void small_cnn() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6, 6, 1}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)},
                                  {"padding", std::string("same")}, {"activation", std::string("relu")}}, {in});
        auto p = b.add("MaxPool2D", {}, {c});
        auto f = b.add("Flatten", {}, {p});
        b.add("Dense", {{"units", std::int64_t(3)}}, {f});
        run("small_cnn", b.graph);
    }
};

QTEST_APPLESS_MAIN(TestLayerReference)
#include "test_layer_reference.moc"
