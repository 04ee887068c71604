// Every layer the CUDA backend runs beside Dense, forward and backward against the CPU backend
// (ctest -L gpu): Conv2D and DepthwiseConv2D (cuDNN; 'same' and 'valid', stride 2 over odd
// and even sizes, dilation, even kernels, every activation), Conv2DTranspose (cuDNN's
// convolution run backwards: TensorFlow's cropping even and uneven, outputs past the full
// transposed convolution, output_padding, dilation, with and without bias, in a network), the poolings (TensorFlow's 'same',
// explicit padding, ceil mode, count_include_pad, global), BatchNormalization (batch
// statistics and the moving averages, inference with the moving statistics, frozen), Dropout's
// masks (the same units dropped at the same step, also after seek_rng), ZeroPadding2D,
// Concatenate, Multiply (with a broadcast operand), Flatten and Reshape views, and the
// activation layers. Without a CUDA device: skipped with the reason (exit 77).
#include "cuda_compare.h"
#include "graph_builder.h"
#include "layerforge/project/project.h"

namespace {

using gpu_test::compare_backends;
using gpu_test::PassOptions;

lf::Params conv(std::int64_t filters, std::int64_t k, std::int64_t stride, const std::string& padding,
                const std::string& activation = "linear", std::int64_t dilation = 1, bool bias = true) {
    return {{"filters", filters},         {"kernel_size", lf::IntList{k, k}},
            {"strides", lf::IntList{stride, stride}}, {"padding", padding},
            {"activation", activation},   {"dilation_rate", lf::IntList{dilation, dilation}},
            {"use_bias", bias}};
}

// Input(shape) -> type(params): the layer's own output compared.
lf::Graph one_layer(const std::string& type, lf::Params params, lf::IntList shape) {
    GraphBuilder b;
    b.add(type, std::move(params), {b.add("Input", {{"shape", shape}})});
    return b.graph;
}

QString row_name(const lf::IntList& shape, const std::string& what) {
    QString s;
    for (auto d : shape) s += QString::number(d) + "x";
    s.chop(1);
    return s + " " + QString::fromStdString(what);
}

}  // namespace

Q_DECLARE_METATYPE(lf::IntList)
Q_DECLARE_METATYPE(lf::Params)

class TestCudaLayers : public QObject {
    Q_OBJECT
private slots:
    void convolutions_match_the_cpu_data() {
        QTest::addColumn<lf::IntList>("shape");
        QTest::addColumn<lf::Params>("params");
        auto row = [](lf::IntList shape, lf::Params p, const char* what) {
            QTest::newRow(qPrintable(row_name(shape, what))) << shape << p;
        };
        row({28, 28, 1}, conv(8, 3, 1, "same", "relu"), "3x3 same relu");
        row({13, 11, 3}, conv(5, 3, 2, "same"), "3x3 stride 2 same, odd sizes");
        row({14, 14, 4}, conv(6, 3, 2, "same", "sigmoid"), "3x3 stride 2 same, even (padded by the plan)");
        row({15, 15, 4}, conv(6, 5, 2, "valid", "tanh"), "5x5 stride 2 valid");
        row({9, 9, 2}, conv(4, 3, 1, "valid", "gelu", 2), "3x3 dilation 2 gelu");
        row({8, 8, 3}, conv(4, 2, 1, "same", "elu"), "2x2 same (one more at the bottom and right)");
        row({7, 7, 16}, conv(32, 1, 1, "valid", "swish", 1, false), "1x1 without bias swish");
        row({6, 6, 3}, conv(10, 3, 1, "same", "softmax"), "softmax over the channels");
    }
    void convolutions_match_the_cpu() {
        QFETCH(lf::IntList, shape);
        QFETCH(lf::Params, params);
        for (std::int64_t batch : {1, 3}) compare_backends(one_layer("Conv2D", params, shape), {.batch = batch});
    }

    void transposed_convolutions_match_the_cpu_data() {
        QTest::addColumn<lf::IntList>("shape");
        QTest::addColumn<lf::Params>("params");
        auto row = [](lf::IntList shape, lf::Params p, const char* what) {
            QTest::newRow(qPrintable(row_name(shape, what))) << shape << p;
        };
        auto padded = [](lf::Params p, lf::IntList output_padding) {
            p["output_padding"] = std::move(output_padding);
            return p;
        };
        row({7, 7, 3}, conv(4, 3, 2, "same"), "3x3 stride 2 same (padded by the plan)");
        row({6, 5, 2}, conv(3, 3, 2, "same", "relu", 1, false), "3x3 stride 2 same relu without bias");
        row({5, 5, 4}, conv(6, 4, 2, "same", "sigmoid"), "4x4 stride 2 same (cuDNN pads)");
        row({6, 7, 3}, conv(5, 3, 2, "valid", "tanh"), "3x3 stride 2 valid");
        row({5, 5, 2}, conv(4, 2, 2, "valid", "linear", 1, false), "2x2 stride 2 valid without bias");
        row({4, 4, 3}, conv(2, 1, 2, "valid"), "1x1 stride 2 valid (past the full output)");
        row({4, 5, 2}, conv(3, 2, 3, "same", "elu"), "2x2 stride 3 same (past the full output)");
        row({4, 4, 2}, padded(conv(3, 3, 2, "valid"), {1, 1}), "3x3 stride 2 valid output_padding 1");
        row({5, 4, 3}, padded(conv(2, 3, 2, "same", "gelu"), {0, 1}), "3x3 stride 2 same output_padding 0,1");
        row({6, 6, 3}, conv(4, 3, 1, "same", "swish", 2), "3x3 dilation 2 same");
        row({8, 8, 16}, conv(8, 3, 1, "valid", "relu"), "3x3 valid, 16 channels");
        row({5, 5, 3}, conv(6, 3, 1, "same", "softmax"), "softmax over the channels");
    }
    void transposed_convolutions_match_the_cpu() {
        QFETCH(lf::IntList, shape);
        QFETCH(lf::Params, params);
        for (std::int64_t batch : {1, 3}) compare_backends(one_layer("Conv2DTranspose", params, shape), {.batch = batch});
        compare_backends(one_layer("Conv2DTranspose", params, shape), {.batch = 2, .mode = lf::PlanMode::Infer});
    }

    // An encoder-decoder: the transposed convolution's data gradient reaches the layers below,
    // and its input is a convolution's output.
    void a_transposed_convolution_in_a_network_matches_the_cpu() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{12, 12, 2}}});
        auto down = b.add("Conv2D", conv(6, 3, 2, "same", "relu"), {in});
        auto up = b.add("Conv2DTranspose", conv(4, 3, 2, "same", "relu"), {down});
        b.add("Conv2D", conv(3, 3, 1, "same"), {up});
        compare_backends(b.graph, {.batch = 4});
    }

    void depthwise_convolutions_match_the_cpu_data() {
        QTest::addColumn<lf::IntList>("shape");
        QTest::addColumn<lf::Params>("params");
        auto dw = [](std::int64_t m, std::int64_t stride, const char* padding, const char* act) {
            return lf::Params{{"kernel_size", lf::IntList{3, 3}}, {"strides", lf::IntList{stride, stride}},
                              {"padding", std::string(padding)}, {"depth_multiplier", m},
                              {"activation", std::string(act)}};
        };
        QTest::newRow("9x9x4 same") << lf::IntList{9, 9, 4} << dw(1, 1, "same", "relu");
        QTest::newRow("10x10x3 multiplier 2 stride 2 same") << lf::IntList{10, 10, 3} << dw(2, 2, "same", "linear");
        QTest::newRow("11x9x5 valid") << lf::IntList{11, 9, 5} << dw(1, 2, "valid", "tanh");
    }
    void depthwise_convolutions_match_the_cpu() {
        QFETCH(lf::IntList, shape);
        QFETCH(lf::Params, params);
        compare_backends(one_layer("DepthwiseConv2D", params, shape), {.batch = 2});
    }

    void poolings_match_the_cpu_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<lf::IntList>("shape");
        QTest::addColumn<lf::Params>("params");
        auto pool = [](std::int64_t k, std::int64_t s, const char* padding) {
            return lf::Params{{"pool_size", lf::IntList{k, k}}, {"strides", lf::IntList{s, s}},
                              {"padding", std::string(padding)}};
        };
        lf::Params explicit_pad = pool(3, 2, "explicit");
        explicit_pad["explicit_padding"] = lf::IntList{1, 0, 0, 1};
        lf::Params ceil = pool(2, 2, "valid");
        ceil["ceil_mode"] = true;
        lf::Params include = pool(3, 2, "explicit");
        include["explicit_padding"] = lf::IntList{1, 1, 1, 1};
        include["count_include_pad"] = true;
        QTest::newRow("max 2x2 valid") << "MaxPool2D" << lf::IntList{8, 8, 3} << pool(2, 2, "valid");
        QTest::newRow("max 3x3 stride 2 same, odd") << "MaxPool2D" << lf::IntList{9, 7, 2} << pool(3, 2, "same");
        QTest::newRow("max 3x3 overlapping") << "MaxPool2D" << lf::IntList{10, 10, 4} << pool(3, 1, "valid");
        QTest::newRow("max explicit") << "MaxPool2D" << lf::IntList{9, 9, 2} << explicit_pad;
        QTest::newRow("max ceil mode") << "MaxPool2D" << lf::IntList{7, 7, 3} << ceil;
        QTest::newRow("average same") << "AveragePooling2D" << lf::IntList{9, 9, 3} << pool(2, 2, "same");
        QTest::newRow("average 3x3 stride 2") << "AveragePooling2D" << lf::IntList{11, 11, 2} << pool(3, 2, "valid");
        QTest::newRow("average including the padding") << "AveragePooling2D" << lf::IntList{8, 8, 2} << include;
        QTest::newRow("global average") << "GlobalAveragePooling2D" << lf::IntList{7, 5, 6} << lf::Params{};
        QTest::newRow("global max") << "GlobalMaxPooling2D" << lf::IntList{7, 5, 6} << lf::Params{};
    }
    void poolings_match_the_cpu() {
        QFETCH(QString, type);
        QFETCH(lf::IntList, shape);
        QFETCH(lf::Params, params);
        for (std::int64_t batch : {1, 5}) compare_backends(one_layer(type.toStdString(), params, shape), {.batch = batch});
    }

    // Training: the batch's statistics and the moving averages (compared as weights after the
    // pass); inference: the moving statistics.
    void batch_normalization_matches_the_cpu() {
        for (lf::IntList shape : {lf::IntList{6, 5, 7}, lf::IntList{33}}) {
            const lf::Graph g = one_layer("BatchNormalization", {{"momentum", 0.9}, {"epsilon", 1e-3}}, shape);
            compare_backends(g, {.batch = 8});
            compare_backends(g, {.batch = 8, .mode = lf::PlanMode::Infer});
        }
        // After a convolution, with a ReLU (the CPU folds it into the normalisation).
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{10, 10, 3}}});
        auto c = b.add("Conv2D", conv(8, 3, 1, "same"), {in});
        b.add("ReLU", {}, {b.add("BatchNormalization", {}, {c})});
        compare_backends(b.graph, {.batch = 4});
        compare_backends(b.graph, {.batch = 4, .mode = lf::PlanMode::Infer});
    }

    // A frozen BatchNormalization under a trainable layer: moving statistics, not moved, and
    // the data gradient passed down.
    void a_frozen_batch_normalization_matches_the_cpu() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{6, 6, 2}}});
        auto c = b.add("Conv2D", conv(4, 3, 1, "same"), {in});
        auto n = b.add("BatchNormalization", {}, {c});
        b.add("Conv2D", conv(3, 3, 1, "same"), {n});
        b.graph.nodes[2].trainable = false;
        compare_backends(b.graph, {.batch = 4});
    }

    // The same (seed, step, index) drops the same units on both backends.
    void dropout_masks_match_the_cpu() {
        for (lf::IntList shape : {lf::IntList{50}, lf::IntList{7, 7, 3}}) {
            const lf::Graph g = one_layer("Dropout", {{"rate", 0.3}}, shape);
            compare_backends(g, {.batch = 16, .seed = 42}, {0, 0});
            compare_backends(g, {.batch = 16, .seed = 42, .rng_step = 5}, {0, 0});
            compare_backends(g, {.batch = 16, .mode = lf::PlanMode::Infer});
        }
    }

    void padding_concatenation_and_products_match_the_cpu() {
        compare_backends(one_layer("ZeroPadding2D", {{"padding", lf::IntList{1, 2, 0, 3}}}, {5, 4, 3}), {.batch = 3});
        // Along the channels (4 + 2 + the input's 3), and along the width (blocks of rows).
        for (std::int64_t axis : {-1, 2}) {
            GraphBuilder b;
            auto in = b.add("Input", {{"shape", lf::IntList{6, 6, 3}}});
            auto x = b.add("Conv2D", conv(axis == -1 ? 4 : 3, 3, 1, "same"), {in});
            auto y = b.add("Conv2D", conv(axis == -1 ? 2 : 3, 1, 1, "same", "relu"), {in});
            b.add("Concatenate", {{"axis", axis}}, {x, y, in});
            compare_backends(b.graph, {.batch = 3});
        }
        // Squeeze-and-excitation: (6, 6, 4) times a (1, 1, 4) gate.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{6, 6, 4}}});
        auto f = b.add("Conv2D", conv(4, 3, 1, "same", "relu"), {in});
        auto gate = b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("sigmoid")}},
                          {b.add("GlobalAveragePooling2D", {}, {f})});
        auto r = b.add("Reshape", {{"target_shape", lf::IntList{1, 1, 4}}}, {gate});
        auto m = b.add("Multiply", {}, {f, r});
        b.add("Multiply", {}, {m, f});
        compare_backends(b.graph, {.batch = 3});
    }

    void views_and_the_tutorial_cnn_match_the_cpu() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{12, 12, 1}}});
        auto c = b.add("Conv2D", conv(6, 3, 1, "valid", "relu"), {in});
        auto p = b.add("MaxPool2D", {}, {c});
        auto f = b.add("Flatten", {}, {p});
        auto r = b.add("Reshape", {{"target_shape", lf::IntList{5, 30}}}, {f});
        b.add("Softmax", {}, {b.add("Dense", {{"units", std::int64_t(7)}}, {r})});
        compare_backends(b.graph, {.batch = 5});
        compare_backends(b.graph, {.batch = 5, .of = lf::OutputGrad::Logits});
        const lf::Graph cnn = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj").graph;
        compare_backends(cnn, {.batch = 7});
        compare_backends(cnn, {.batch = 7, .of = lf::OutputGrad::Logits});
    }

    void activation_layers_match_the_cpu_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<lf::Params>("params");
        QTest::newRow("ReLU") << "ReLU" << lf::Params{};
        QTest::newRow("ReLU slope") << "ReLU" << lf::Params{{"negative_slope", 0.1}};
        QTest::newRow("ReLU cap") << "ReLU" << lf::Params{{"max_value", 0.5}};
        QTest::newRow("ReLU threshold") << "ReLU" << lf::Params{{"threshold", 0.25}, {"negative_slope", 0.2}};
        QTest::newRow("ReLU cap and slope") << "ReLU" << lf::Params{{"max_value", 0.6}, {"negative_slope", 0.2}};
        QTest::newRow("LeakyReLU") << "LeakyReLU" << lf::Params{{"alpha", 0.3}};
        QTest::newRow("GELU") << "GELU" << lf::Params{};
        QTest::newRow("GELU tanh") << "GELU" << lf::Params{{"approximate", true}};
        for (const char* a : {"elu", "swish", "silu", "exponential", "gelu", "relu", "sigmoid", "tanh", "linear",
                              "hard_sigmoid", "hard_swish"})
            QTest::newRow(a) << "Activation" << lf::Params{{"activation", std::string(a)}};
    }
    void activation_layers_match_the_cpu() {
        QFETCH(QString, type);
        QFETCH(lf::Params, params);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{5, 5, 3}}});
        auto c = b.add("Conv2D", conv(4, 3, 1, "same"), {in});
        b.add(type.toStdString(), params, {c});
        compare_backends(b.graph, {.batch = 3});
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaLayers>(argc, argv); }
#include "test_cuda_layers.moc"
