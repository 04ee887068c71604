// Finite-difference checks of the convolution, pooling, normalisation and padding layers
// (input and parameter gradients), over strides, padding modes, dilation, odd sizes and batch 1,
// and of a residual graph with BatchNormalization and an Add skip connection.
#include <QtTest>

#include "graph_builder.h"
#include "gradcheck.h"

using lf::IntList;
using lf::Params;

namespace {

void check_single(const IntList& shape, const std::string& type, const Params& params, std::int64_t batch = 2) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", shape}});
    b.add(type, params, {in});
    lf::Model model(b.graph);
    GradCheck gc(model, batch);
    gc.run();
}

struct Case {
    const char* name;
    IntList shape;
    Params params;
    std::int64_t batch;
};

void add_rows(const std::vector<Case>& cases) {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i].name) << int(i);
}

const std::string kSame = "same", kValid = "valid";

const std::vector<Case>& conv_cases() {
    static const std::vector<Case> c = {
        {"3x3 same", {5, 6, 2}, {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)}, {"padding", kSame}}, 2},
        {"5x5 same elu", {6, 5, 2},
         {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(5)}, {"padding", kSame},
          {"activation", std::string("elu")}}, 2},
        {"2x2 same stride 2 (asymmetric pad)", {5, 7, 3},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(2)}, {"strides", std::int64_t(2)}, {"padding", kSame}},
         2},
        {"3x2 valid stride 2 odd input", {7, 5, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", IntList{3, 2}}, {"strides", IntList{2, 1}}, {"padding", kValid}}, 2},
        {"dilation 2 same", {7, 7, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"dilation_rate", std::int64_t(2)},
          {"padding", kSame}}, 2},
        {"1x1 no bias sigmoid", {4, 3, 3},
         {{"filters", std::int64_t(4)}, {"kernel_size", std::int64_t(1)}, {"use_bias", false},
          {"activation", std::string("sigmoid")}}, 2},
        {"batch 1 gelu", {5, 5, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"activation", std::string("gelu")}}, 1},
    };
    return c;
}

const std::vector<Case>& depthwise_cases() {
    static const std::vector<Case> c = {
        {"3x3 same", {5, 6, 3}, {{"kernel_size", std::int64_t(3)}, {"padding", kSame}}, 2},
        {"stride 2 same multiplier 2", {6, 5, 2},
         {{"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", kSame},
          {"depth_multiplier", std::int64_t(2)}}, 2},
        {"dilation 2 valid relu", {7, 6, 2},
         {{"kernel_size", std::int64_t(2)}, {"dilation_rate", std::int64_t(2)}, {"activation", std::string("relu")}}, 1},
    };
    return c;
}

const std::vector<Case>& transpose_cases() {
    static const std::vector<Case> c = {
        {"3x3 stride 2 same", {3, 4, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", kSame}},
         2},
        {"2x3 stride (2,1) valid", {3, 3, 2},
         {{"filters", std::int64_t(3)}, {"kernel_size", IntList{2, 3}}, {"strides", IntList{2, 1}}}, 2},
        {"dilation 2 valid batch 1", {3, 3, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(2)}, {"dilation_rate", std::int64_t(2)}}, 1},
        // output_padding: bottom/right rows past the full result (oneDNN's negative right padding)
        {"3x3 stride 2 same output_padding 1", {3, 4, 2},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", kSame},
          {"output_padding", IntList{1, 0}}},
         2},
        {"3x2 stride (3,2) valid output_padding (2,1)", {2, 3, 2},
         {{"filters", std::int64_t(3)}, {"kernel_size", IntList{3, 2}}, {"strides", IntList{3, 2}},
          {"output_padding", IntList{2, 1}}},
         2},
        {"kernel 2 stride 3 valid (Keras pads to in * stride)", {2, 2, 1},
         {{"filters", std::int64_t(2)}, {"kernel_size", std::int64_t(2)}, {"strides", std::int64_t(3)}}, 1},
    };
    return c;
}

const std::vector<Case>& pool_cases() {
    static const std::vector<Case> c = {
        {"MaxPool2D 2 valid odd input", {5, 7, 2}, {}, 2},
        {"MaxPool2D 3 stride 2 same", {5, 6, 2},
         {{"pool_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", kSame}}, 2},
        {"AveragePooling2D 2 same", {5, 7, 2}, {{"padding", kSame}}, 2},
        {"AveragePooling2D 3 stride 1 valid batch 1", {4, 5, 3},
         {{"pool_size", std::int64_t(3)}, {"strides", std::int64_t(1)}}, 1},
        // ONNX / PyTorch pooling: explicit pads (-inf for max), ceil_mode, the padding counted.
        {"MaxPool2D 3 stride 2 explicit pads ceil_mode", {6, 6, 2},
         {{"pool_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", std::string("explicit")},
          {"explicit_padding", IntList{1, 0, 0, 0}}, {"ceil_mode", true}},
         2},
        {"AveragePooling2D 3 stride 2 explicit count_include_pad", {5, 6, 2},
         {{"pool_size", std::int64_t(3)}, {"strides", std::int64_t(2)}, {"padding", std::string("explicit")},
          {"explicit_padding", IntList{1, 1, 1, 1}}, {"count_include_pad", true}},
         2},
        {"AveragePooling2D 2 valid ceil_mode", {5, 5, 2}, {{"ceil_mode", true}}, 2},
    };
    return c;
}

}  // namespace

class TestConvGradients : public QObject {
    Q_OBJECT

private slots:
    void conv2d_data() { add_rows(conv_cases()); }
    void conv2d() {
        QFETCH(int, index);
        const Case& c = conv_cases()[std::size_t(index)];
        check_single(c.shape, "Conv2D", c.params, c.batch);
    }
    void depthwise_conv2d_data() { add_rows(depthwise_cases()); }
    void depthwise_conv2d() {
        QFETCH(int, index);
        const Case& c = depthwise_cases()[std::size_t(index)];
        check_single(c.shape, "DepthwiseConv2D", c.params, c.batch);
    }
    void conv2d_transpose_data() { add_rows(transpose_cases()); }
    void conv2d_transpose() {
        QFETCH(int, index);
        const Case& c = transpose_cases()[std::size_t(index)];
        check_single(c.shape, "Conv2DTranspose", c.params, c.batch);
    }
    void pooling_data() { add_rows(pool_cases()); }
    void pooling() {
        QFETCH(int, index);
        const Case& c = pool_cases()[std::size_t(index)];
        std::string type = c.name;
        check_single(c.shape, type.substr(0, type.find(' ')), c.params, c.batch);
    }
    void global_average_pooling() { check_single({3, 4, 3}, "GlobalAveragePooling2D", {}); }
    void global_max_pooling() { check_single({4, 3, 2}, "GlobalMaxPooling2D", {}, 1); }
    void batch_norm_on_images_and_vectors() {
        check_single({3, 3, 4}, "BatchNormalization", {}, 3);
        check_single({5}, "BatchNormalization", {{"epsilon", 0.01}}, 4);
    }
    void zero_padding() { check_single({2, 3, 2}, "ZeroPadding2D", {{"padding", IntList{1, 0, 2, 1}}}); }

    void residual_block_with_batch_norm() {
        // stem conv -> conv -> bn -> tanh -> conv -> bn, plus the skip from the stem: Add -> tanh
        // -> global pooling -> dense. The stem's output feeds two consumers (fan-out). Smooth
        // activations: a weight step moves every pixel, and relu kinks would spoil the differences.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{5, 5, 2}}});
        auto stem = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)},
                                     {"padding", kSame}}, {in});
        auto c1 = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)},
                                   {"padding", kSame}, {"use_bias", false}}, {stem});
        auto n1 = b.add("BatchNormalization", {}, {c1});
        auto r1 = b.add("Tanh", {}, {n1});
        auto c2 = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", std::int64_t(3)},
                                   {"padding", kSame}, {"use_bias", false}}, {r1});
        auto n2 = b.add("BatchNormalization", {}, {c2});
        auto sum = b.add("Add", {}, {n2, stem});
        auto r2 = b.add("Tanh", {}, {sum});
        auto gap = b.add("GlobalAveragePooling2D", {}, {r2});
        b.add("Dense", {{"units", std::int64_t(2)}}, {gap});
        lf::Model model(b.graph);
        GradCheck gc(model, 3);
        gc.run();
    }
};

QTEST_APPLESS_MAIN(TestConvGradients)
#include "test_conv_gradients.moc"
