// MaxPoolLoops (the CPU backend's float32 max pooling below AVX-512) against oneDNN's pooling
// primitives on every machine: the pooled values bit for bit, and the input gradient routed
// through each one's own argmax (bit for bit too where windows do not overlap), over windows
// that tile the input, overlap, pad ('same', explicit, ceil_mode), leave an edge uncovered, and
// channel counts across the loops' 64-channel chunks; with and without the ReLU moved past the
// pooling; on one thread and split over two. The plans that use the loops are checked by
// test_conv_gradients, test_layer_reference and test_relu_rewrites, registered again capped at
// AVX2 (tests/CMakeLists.txt).
#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/cpu/max_pool_loops.h"
#include "core/slices.h"
#include "layerforge/core/params.h"
#include "layers/window.h"

namespace {

using dnnl::memory;

struct Reference {
    std::vector<float> y, dx;
};

// oneDNN's max pooling over NHWC: forward training with its workspace, then backward.
Reference onednn_pool(const std::vector<float>& x, const std::vector<float>& dy, std::int64_t n, std::int64_t c,
                      const lf::Window2D& w, bool relu) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    auto src_md = memory::desc({n, c, w.in[0], w.in[1]}, memory::data_type::f32, memory::format_tag::nhwc);
    auto dst_md = memory::desc({n, c, w.out[0], w.out[1]}, memory::data_type::f32, memory::format_tag::nhwc);
    const memory::dims strides{w.stride[0], w.stride[1]}, kernel{w.kernel[0], w.kernel[1]},
        pad_l{w.pad_l[0], w.pad_l[1]}, pad_r{w.pad_r[0], w.pad_r[1]};
    pooling_forward::primitive_desc fpd(pooling_forward::desc(prop_kind::forward_training, algorithm::pooling_max,
                                                              src_md, dst_md, strides, kernel, pad_l, pad_r),
                                        eng);
    Reference r{std::vector<float>(dst_md.get_size() / 4), std::vector<float>(src_md.get_size() / 4)};
    memory src(src_md, eng, const_cast<float*>(x.data())), dst(dst_md, eng, r.y.data()), ws(fpd.workspace_desc(), eng);
    pooling_forward(fpd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_WORKSPACE, ws}});
    std::vector<float> g = dy;
    if (relu)
        for (std::size_t i = 0; i < r.y.size(); ++i) {
            r.y[i] = std::max(r.y[i], 0.f);
            if (!(r.y[i] > 0.f)) g[i] = 0.f;
        }
    pooling_backward::primitive_desc bpd(
        pooling_backward::desc(algorithm::pooling_max, src_md, dst_md, strides, kernel, pad_l, pad_r), eng, fpd);
    memory diff_dst(dst_md, eng, g.data()), diff_src(src_md, eng, r.dx.data());
    pooling_backward(bpd).execute(strm, {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_SRC, diff_src}, {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    return r;
}

std::vector<float> normal(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.f, 1.f);
    std::vector<float> v(n);
    for (float& f : v) f = d(rng);
    return v;
}

struct Case {
    const char* name;
    lf::IntList hw;
    std::int64_t channels;
    lf::Params params;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = [] {
        auto pool = [](lf::IntList size, lf::IntList strides, const char* padding, lf::IntList pads = {}, bool ceil = false) {
            lf::Params p{{"pool_size", size}, {"strides", strides}, {"padding", std::string(padding)}, {"ceil_mode", ceil}};
            if (!pads.empty()) p["explicit_padding"] = pads;
            return p;
        };
        const lf::Params two = pool({2, 2}, {2, 2}, "valid"), same3 = pool({3, 3}, {2, 2}, "same"),
                         overlap = pool({3, 3}, {1, 1}, "valid"), oblong = pool({2, 3}, {1, 3}, "same"),
                         ceil = pool({3, 3}, {2, 2}, "explicit", {1, 0, 0, 1}, true);
        return std::vector<Case>{
            {"2x2 tiles, 32 channels (the tutorial CNN)", {28, 28}, 32, two},
            {"2x2 tiles, 70 channels (two chunks)", {6, 8}, 70, two},
            {"2x2 on an odd input (an edge left out)", {7, 5}, 3, two},
            {"3x3 stride 2 same (padding, overlap)", {9, 10}, 5, same3},
            {"3x3 stride 1 valid (overlap)", {6, 6}, 65, overlap},
            {"2x3 stride 1x3 same (oblong)", {5, 9}, 8, oblong},
            {"3x3 stride 2 explicit pads, ceil_mode", {6, 7}, 4, ceil},
        };
    }();
    return all;
}

}  // namespace

class TestMaxPoolLoops : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void same_as_onednn_data() {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name) << int(i);
    }
    void same_as_onednn() {
        QFETCH(int, row);
        const Case& k = cases()[std::size_t(row)];
        const lf::IntList hw = k.hw;
        const std::int64_t channels = k.channels;
        const lf::Params& params = k.params;
        const std::int64_t n = 12;  // the tutorial CNN's case is then large enough to be split among threads
        const lf::Window2D w = lf::pool_window(lf::Shape{hw[0], hw[1], channels}, params, "MaxPool2D");
        QVERIFY(lf::MaxPoolLoops::fits(w));
        // Where windows overlap, a gradient element sums several windows, maybe in another order.
        const float tol = w.stride[0] < w.kernel[0] || w.stride[1] < w.kernel[1] ? 1e-6f : 0.f;
        const lf::MaxPoolLoops loops(n, channels, w);
        const std::vector<float> x = normal(std::size_t(n * hw[0] * hw[1] * channels), 1);
        const std::vector<float> dy = normal(loops.outputs(), 2);
        for (bool relu : {false, true}) {
            for (int threads : {1, 2}) {
                const lf::core_detail::ThreadCount scope(threads);
                const Reference want = onednn_pool(x, dy, n, channels, w, relu);
                std::vector<float> y(loops.outputs(), NAN), dx(x.size(), NAN);
                std::vector<std::uint8_t> argmax(loops.outputs());
                loops.forward(x.data(), y.data(), argmax.data(), relu);
                for (std::size_t i = 0; i < y.size(); ++i)
                    if (y[i] != want.y[i])
                        QFAIL(qPrintable(QString("relu %1: output %2 is %3, oneDNN %4").arg(relu).arg(i).arg(y[i]).arg(want.y[i])));
                std::vector<float> y_inference(y.size(), NAN);
                loops.forward(x.data(), y_inference.data(), nullptr, relu);
                QVERIFY(y_inference == y);
                loops.backward(dy.data(), y.data(), argmax.data(), dx.data(), relu);
                for (std::size_t i = 0; i < dx.size(); ++i)
                    if (!(std::fabs(dx[i] - want.dx[i]) <= tol * (1.f + std::fabs(want.dx[i]))))
                        QFAIL(qPrintable(QString("relu %1: input gradient %2 is %3, oneDNN %4").arg(relu).arg(i).arg(dx[i]).arg(want.dx[i])));
            }
        }
    }

    void a_larger_window_than_a_byte_indexes_is_declined() {
        lf::Window2D w;
        w.kernel = {16, 16};
        QVERIFY(lf::MaxPoolLoops::fits(w));
        w.kernel = {17, 16};
        QVERIFY(!lf::MaxPoolLoops::fits(w));
    }
};

QTEST_MAIN(TestMaxPoolLoops)
#include "test_max_pool_loops.moc"
