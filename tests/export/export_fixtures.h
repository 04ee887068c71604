#pragma once
// Small models with random weights for the export tests, the engine's own predictions, and
// running the exported files in other runtimes through run_exported.py (/usr/bin/python3).
#include <QtTest>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph_builder.h"
#include "lf_test_util.h"
#include "layerforge/graph/model.h"
#include "device_plan.h"

namespace export_test {

// Keras init, then every weight randomised so biases and BatchNormalization statistics matter.
inline void randomize(lf::Model& m, std::uint32_t seed) {
    m.init_weights(seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f), pos(0.5f, 1.5f);
    for (const auto& r : m.weight_refs()) {
        const bool positive = r.name.ends_with("/moving_variance") || r.name.ends_with("/gamma");
        float* w = m.weights().data() + r.offset;
        for (std::size_t i = 0; i < r.size; ++i) w[i] = positive ? pos(rng) : (r.name.ends_with("/kernel") ? w[i] : u(rng));
    }
}

// Input (6, 6, 3) -> Flatten -> Dense(16, relu) -> Dropout -> Dense(5) -> Softmax: the Flatten
// has 3 channels, so a channels-first export must permute the first Dense.
inline lf::Graph mlp() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{6, 6, 3}}});
    auto f = b.add("Flatten", {}, {in});
    auto d1 = b.add("Dense", {{"units", std::int64_t(16)}, {"activation", std::string("relu")}}, {f});
    auto dr = b.add("Dropout", {{"rate", 0.3}}, {d1});
    auto d2 = b.add("Dense", {{"units", std::int64_t(5)}}, {dr});
    b.add("Softmax", {}, {d2});
    return b.graph;
}

// Conv 'same' -> MaxPool 3/2 'same' (asymmetric padding) -> Conv 'valid' -> Flatten -> Dense -> Softmax.
inline lf::Graph cnn() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{10, 10, 2}}});
    auto c1 = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}},
                               {"padding", std::string("same")}, {"activation", std::string("relu")}}, {in});
    auto p = b.add("MaxPool2D", {{"pool_size", lf::IntList{3, 3}}, {"strides", lf::IntList{2, 2}},
                                 {"padding", std::string("same")}}, {c1});
    auto c2 = b.add("Conv2D", {{"filters", std::int64_t(6)}, {"kernel_size", lf::IntList{3, 3}},
                               {"activation", std::string("tanh")}}, {p});
    auto f = b.add("Flatten", {}, {c2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {f});
    b.add("Softmax", {}, {d});
    return b.graph;
}

// Conv -> BN -> ReLU -> Conv -> BN -> Add(skip) -> ReLU -> GlobalAveragePooling2D -> Dense -> Softmax.
inline lf::Graph residual() {
    GraphBuilder b;
    auto conv = [&](const std::string& from) {
        return b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}},
                                {"padding", std::string("same")}}, {from});
    };
    auto in = b.add("Input", {{"shape", lf::IntList{8, 8, 3}}});
    auto bn1 = b.add("BatchNormalization", {}, {conv(in)});
    auto r1 = b.add("ReLU", {}, {bn1});
    auto bn2 = b.add("BatchNormalization", {}, {conv(r1)});
    auto add = b.add("Add", {}, {bn2, r1});
    auto r2 = b.add("ReLU", {}, {add});
    auto g = b.add("GlobalAveragePooling2D", {}, {r2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {g});
    b.add("Softmax", {}, {d});
    return b.graph;
}

// Two convolution branches joined on channels, pooled and flattened, then two Dense branches
// joined again: Concatenate on images and on vectors.
inline lf::Graph branches() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{8, 8, 2}}});
    auto a = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{1, 1}},
                              {"activation", std::string("relu")}}, {in});
    auto c = b.add("Conv2D", {{"filters", std::int64_t(5)}, {"kernel_size", lf::IntList{3, 3}},
                              {"padding", std::string("same")}, {"activation", std::string("sigmoid")}}, {in});
    auto cat = b.add("Concatenate", {{"axis", std::int64_t(-1)}}, {a, c});
    auto p = b.add("AveragePooling2D", {{"pool_size", lf::IntList{2, 2}}}, {cat});
    auto f = b.add("Flatten", {}, {p});
    auto d1 = b.add("Dense", {{"units", std::int64_t(6)}, {"activation", std::string("relu")}}, {f});
    auto d2 = b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("tanh")}}, {f});
    auto cat2 = b.add("Concatenate", {}, {d1, d2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {cat2});
    b.add("Softmax", {}, {d});
    return b.graph;
}

// The less common mappings: ZeroPadding2D (Pad), ELU, LeakyReLU, hard_swish, AveragePooling2D
// 'same' with asymmetric padding, GlobalMaxPooling2D, Reshape to rank 2, a swish Dense and a
// hard_sigmoid one.
inline lf::Graph misc() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{7, 7, 2}}});
    auto pad = b.add("ZeroPadding2D", {{"padding", lf::IntList{1, 0, 2, 1}}}, {in});
    auto c = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{3, 3}},
                              {"padding", std::string("same")}, {"activation", std::string("elu")}}, {pad});
    auto leaky = b.add("LeakyReLU", {{"alpha", 0.2}}, {c});
    auto hard = b.add("Activation", {{"activation", std::string("hard_swish")}}, {leaky});
    auto avg = b.add("AveragePooling2D", {{"pool_size", lf::IntList{3, 3}}, {"strides", lf::IntList{2, 2}},
                                          {"padding", std::string("same")}}, {hard});
    auto gmax = b.add("GlobalMaxPooling2D", {}, {avg});
    auto rows = b.add("Reshape", {{"target_shape", lf::IntList{-1, 3}}}, {avg});
    auto flat = b.add("Flatten", {}, {rows});
    auto cat = b.add("Concatenate", {}, {gmax, flat});
    auto d1 = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("swish")}}, {cat});
    auto d2 = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("hard_sigmoid")}}, {d1});
    b.add("Softmax", {}, {d2});
    return b.graph;
}

// Keras ReLU parameters: ReLU6-style cap (Relu - Relu(x - cap)), and threshold + slope + cap.
inline lf::Graph capped_relus() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{6, 6, 2}}});
    auto c1 = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}},
                               {"padding", std::string("same")}}, {in});
    auto r1 = b.add("ReLU", {{"max_value", 0.4}}, {c1});
    auto c2 = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}}}, {r1});
    auto r2 = b.add("ReLU", {{"max_value", 0.3}, {"negative_slope", 0.2}, {"threshold", 0.05}}, {c2});
    auto f = b.add("Flatten", {}, {r2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {f});
    b.add("Softmax", {}, {d});
    return b.graph;
}

// Conv2DTranspose upsampling: even 'same' cropping, uneven cropping with output_padding (a
// Slice in ONNX), and 'valid' with output_padding (rows past the full result).
inline lf::Graph upsampling() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{3, 4, 2}}});
    auto t1 = b.add("Conv2DTranspose", {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{3, 3}},
                                        {"strides", lf::IntList{2, 2}}, {"padding", std::string("same")},
                                        {"output_padding", lf::IntList{1, 0}}, {"activation", std::string("relu")}},
                    {in});
    auto t2 = b.add("Conv2DTranspose", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 2}},
                                        {"strides", lf::IntList{3, 2}}, {"output_padding", lf::IntList{2, 1}}},
                    {t1});
    auto f = b.add("Flatten", {}, {t2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {f});
    b.add("Softmax", {}, {d});
    return b.graph;
}

// A dilated Conv2DTranspose ('valid', then 'same' with a stride), its output the model's.
inline lf::Graph dilated_upsampling() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{4, 5, 2}}});
    auto t1 = b.add("Conv2DTranspose", {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{3, 3}},
                                        {"dilation_rate", lf::IntList{2, 2}}, {"activation", std::string("relu")}},
                    {in});
    auto t2 = b.add("Conv2DTranspose", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 2}},
                                        {"dilation_rate", lf::IntList{2, 3}}, {"padding", std::string("same")}},
                    {t1});
    b.add("Flatten", {}, {t2});
    return b.graph;
}

inline std::vector<float> random_inputs(const lf::Model& m, std::int64_t batch, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<float> x(std::size_t(batch * m.info(m.input_node()).layer.output.elements()));
    for (auto& v : x) v = u(rng);
    return x;
}

// The engine's inference output for a batch of channels-last inputs.
inline std::vector<float> engine_predict(lf::Model& m, const std::vector<float>& x, std::int64_t batch) {
    lf::test::DevicePlan plan(m, {.batch = batch, .mode = lf::PlanMode::Infer});
    std::copy(x.begin(), x.end(), plan.input());
    plan.forward();
    return {plan.output(), plan.output() + batch * plan.output_width()};
}

// (N, H, W, C) -> (N, C, H, W).
inline std::vector<float> to_nchw(const std::vector<float>& x, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c) {
    std::vector<float> y(x.size());
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t yy = 0; yy < h; ++yy)
            for (std::int64_t xx = 0; xx < w; ++xx)
                for (std::int64_t k = 0; k < c; ++k)
                    y[std::size_t(((i * c + k) * h + yy) * w + xx)] = x[std::size_t(((i * h + yy) * w + xx) * c + k)];
    return y;
}

inline void write_floats(const QString& path, const std::vector<float>& v) {
    std::ofstream(path.toStdString(), std::ios::binary).write(reinterpret_cast<const char*>(v.data()),
                                                              std::streamsize(v.size() * sizeof(float)));
}

inline std::vector<float> read_floats(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    std::vector<float> v(std::size_t(b.size()) / sizeof(float));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(float));
    return v;
}

inline nlohmann::json read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
}

// Runs the jobs (see run_exported.py) in one /usr/bin/python3 process; fails the test on error.
inline bool run_python_jobs(const nlohmann::json& jobs, const QString& dir) {
    const QString file = dir + "/jobs.json";
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(QByteArray::fromStdString(jobs.dump()));
    f.close();
    QProcess p;
    p.start("/usr/bin/python3", {qEnvironmentVariable("LF_SOURCE_DIR") + "/tests/export/run_exported.py", file});
    const bool finished = p.waitForFinished(120000);
    const QByteArray err = p.readAllStandardError();
    if (!finished || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("run_exported.py failed: %s", err.constData());
        return false;
    }
    return true;
}

inline std::vector<std::int64_t> argmax_rows(const std::vector<float>& v, std::size_t width) {
    std::vector<std::int64_t> out;
    for (std::size_t r = 0; r * width < v.size(); ++r)
        out.push_back(std::max_element(v.begin() + long(r * width), v.begin() + long((r + 1) * width)) -
                      (v.begin() + long(r * width)));
    return out;
}

inline double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, double(std::abs(a[i] - b[i])));
    return d;
}

}  // namespace export_test

// Fails unless `other` has the engine's shape, max abs difference < 1e-4 and the same argmax.
#define EXPECT_SAME_PREDICTIONS(engine, other, width, what)                                                    \
    do {                                                                                                       \
        QCOMPARE((other).size(), (engine).size());                                                             \
        const double lf_d = export_test::max_abs_diff(engine, other);                                          \
        QVERIFY2(lf_d < 1e-4, qPrintable(QString("%1: max abs diff %2").arg(what).arg(lf_d)));                 \
        QCOMPARE(export_test::argmax_rows(other, width), export_test::argmax_rows(engine, width));             \
    } while (0)
