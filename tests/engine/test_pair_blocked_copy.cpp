// PairBlockedCopy against oneDNN's own reorder: for every pair-blocked bfloat16 layout the CPU
// backend's bf16 primitives ask for (inner product, matmul, convolution weights) and for the
// source strides the ops hand it, the bytes written are the reorder's, edge blocks and their zero
// padding included; layouts of another kind are declined (and left to the reorder).
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/pair_blocked_copy.h"
#include "layerforge/core/bfloat16.h"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

std::vector<std::uint16_t> reordered(memory src, const memory::desc& to, const dnnl::engine& eng) {
    memory dst(to, eng);
    std::memset(dst.get_data_handle(), 0xff, to.get_size());  // the reorder must write the padding too
    dnnl::stream strm(eng);
    dnnl::reorder(src, dst).execute(strm, src, dst);
    strm.wait();
    const auto* p = static_cast<const std::uint16_t*>(dst.get_data_handle());
    return {p, p + to.get_size() / 2};
}

memory random_f32(const memory::desc& md, const dnnl::engine& eng, unsigned seed) {
    memory m(md, eng);
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.f, 1.f);
    auto* p = static_cast<float*>(m.get_data_handle());
    for (std::size_t i = 0; i < md.get_size() / sizeof(float); ++i) p[i] = dist(rng);
    if (md.get_size() >= 3 * sizeof(float)) {  // ties and a NaN: the rounding must agree there too
        p[0] = lf::from_bfloat16(0x3f80) + std::ldexp(1.f, -8);
        p[1] = std::numeric_limits<float>::quiet_NaN();
        p[2] = -0.f;
    }
    return m;
}

}  // namespace

class TestPairBlockedCopy : public QObject {
    Q_OBJECT

    dnnl::engine eng_{dnnl::engine::kind::cpu, 0};
    // Below AVX-512 oneDNN reorders with its reference loop, which computes 1 * x + 0 * dst and so
    // writes -0 as +0; its jit reorder, which the bfloat16 CPUs run, keeps the sign, as the copy
    // does. Only there may a zero's sign differ.
    const bool zero_sign_free_ = !lf::cpu_isa_reaches(dnnl_cpu_isa_avx512_core);

    // Both ways: the AVX512-BF16 loops where this CPU has them, and the portable loops.
    void expect_same_as_reorder(const memory::desc& from, const memory::desc& to) {
        memory src = random_f32(from, eng_, unsigned(to.get_size()));
        const std::vector<std::uint16_t> want = reordered(src, to, eng_);
        for (bool avx512 : {true, false}) {
            auto copy = lf::PairBlockedCopy::plan(from, to, avx512);
            QVERIFY2(copy, "the layout is pair-blocked: PairBlockedCopy must take it");
            std::vector<std::uint16_t> got(to.get_size() / 2, 0);
            copy->run(static_cast<const float*>(src.get_data_handle()), got.data());
            for (std::size_t i = 0; i < want.size(); ++i)
                if (got[i] != want[i] && !(zero_sign_free_ && ((got[i] | want[i]) & 0x7fff) == 0))
                    QFAIL(qPrintable(QString("element %1 of %2 (avx512 %3): %4, the reorder wrote %5")
                                         .arg(i).arg(want.size()).arg(avx512).arg(got[i], 4, 16).arg(want[i], 4, 16)));
            expect_bands_write_the_same(*copy, static_cast<const float*>(src.get_data_handle()), got);
        }
        expect_loops_agree(from, to);
    }

    // The AVX512-BF16 loops (where this CPU has them) and the portable ones write the same bits
    // for random bit patterns: every class of float, subnormals (which oneDNN's jit reorder and
    // the instruction alone flush to zero) and NaNs included.
    static void expect_loops_agree(const memory::desc& from, const memory::desc& to) {
        std::vector<float> src(from.get_size() / sizeof(float));
        std::mt19937 rng(unsigned(src.size()));
        for (float& x : src) x = std::bit_cast<float>(rng() % 4 ? std::uint32_t(rng()) : std::uint32_t(rng() & 0x807fffffu));
        std::vector<std::uint16_t> fast(to.get_size() / 2, 0), portable(fast.size(), 0);
        lf::PairBlockedCopy::plan(from, to, true)->run(src.data(), fast.data());
        lf::PairBlockedCopy::plan(from, to, false)->run(src.data(), portable.data());
        for (std::size_t i = 0; i < fast.size(); ++i)
            if (fast[i] != portable[i])
                QFAIL(qPrintable(QString("element %1 of %2: %3 fast, %4 portable").arg(i).arg(fast.size())
                                     .arg(fast[i], 4, 16).arg(portable[i], 4, 16)));
    }

    // Every source here is one dense array, so the copy cuts into bands (the optimizer update's
    // way, CpuPlan::backward_and_update): band by band, one band at a time or three, with a
    // shorter last one, it writes what the whole copy wrote.
    static void expect_bands_write_the_same(const lf::PairBlockedCopy& copy, const float* src,
                                            const std::vector<std::uint16_t>& whole) {
        QVERIFY2(copy.band_rows() > 0, "a dense source cuts into bands");
        for (std::int64_t step : {copy.band_rows(), 3 * copy.band_rows()}) {
            std::vector<std::uint16_t> banded(whole.size(), 0);
            for (std::int64_t r = 0; r < copy.rows(); r += step)
                copy.run_rows(src, banded.data(), r, std::min(copy.rows(), r + step));
            QVERIFY2(banded == whole, qPrintable(QString("bands of %1 rows").arg(step)));
        }
    }

private slots:
    // Dense: the kernel (in, units) row-major, read as {units, in} with the `io` tag by the
    // inner product and with strides {1, units} by the backward-data matmul.
    void dense_layouts_data() {
        QTest::addColumn<int>("units");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("layout");
        for (auto [m, k] : {std::pair{100, 784}, {10, 100}, {1024, 3136}, {10, 1024}, {5, 256}, {37, 50}, {64, 130}})
            for (auto [t, name] : {std::pair{tag::AB8b64a2b, "AB8b64a2b"}, {tag::AB8b16a2b, "AB8b16a2b"},
                                   {tag::BA16a64b2a, "BA16a64b2a"}, {tag::BA16a16b2a, "BA16a16b2a"},
                                   {tag::AB16b64a2b, "AB16b64a2b"}})
                QTest::addRow("%dx%d %s", m, k, name) << m << k << int(t);
    }
    void dense_layouts() {
        QFETCH(int, units);
        QFETCH(int, in);
        QFETCH(int, layout);
        const memory::dims dims{units, in};
        expect_same_as_reorder(memory::desc(dims, dt::f32, tag::io), memory::desc(dims, dt::bf16, tag(layout)));
        expect_same_as_reorder(memory::desc(dims, dt::f32, memory::dims{1, units}),
                               memory::desc(dims, dt::bf16, tag(layout)));
    }

    // Conv2D: the kernel as Keras stores it (kh, kw, in, out), the `cdba` tag of {out, in, kh, kw}.
    void conv_layouts_data() {
        QTest::addColumn<int>("out");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("layout");
        for (auto [o, i, k] : {std::tuple{64, 32, 5}, {32, 32, 3}, {24, 144, 1}, {8, 16, 1}, {144, 24, 1}, {3, 5, 3}})
            for (auto [t, name] : {std::pair{tag::ABcd8a16b2a, "ABcd8a16b2a"}, {tag::BAcd8a16b2a, "BAcd8a16b2a"},
                                   {tag::ABcd16b16a2b, "ABcd16b16a2b"}, {tag::ABcd16a16b2a, "ABcd16a16b2a"}})
                QTest::addRow("%dx%dx%dx%d %s", o, i, k, k, name) << o << i << k << int(t);
    }
    void conv_layouts() {
        QFETCH(int, out);
        QFETCH(int, in);
        QFETCH(int, k);
        QFETCH(int, layout);
        const memory::dims dims{out, in, k, k};
        expect_same_as_reorder(memory::desc(dims, dt::f32, tag::cdba), memory::desc(dims, dt::bf16, tag(layout)));
    }

    void other_layouts_are_declined() {
        using lf::PairBlockedCopy;
        const memory::dims dense{100, 784}, dw{16, 1, 1, 3, 3};
        // no pairs: a single inner block (DepthwiseConv2D's Abcde16a), a float32 blocked layout
        QVERIFY(!PairBlockedCopy::plan(memory::desc(dw, dt::f32, tag::decab), memory::desc(dw, dt::bf16, tag::Abcde16a)));
        QVERIFY(!PairBlockedCopy::plan(memory::desc({64, 32, 3, 3}, dt::f32, tag::cdba),
                                       memory::desc({64, 32, 3, 3}, dt::f32, tag::ABcd16b16a)));
        // a plain bfloat16 destination, and a source that is itself blocked
        QVERIFY(!PairBlockedCopy::plan(memory::desc(dense, dt::f32, tag::io), memory::desc(dense, dt::bf16, tag::io)));
        QVERIFY(!PairBlockedCopy::plan(memory::desc(dense, dt::f32, tag::AB16b16a),
                                       memory::desc(dense, dt::bf16, tag::AB8b64a2b)));
        // a source with gaps between its rows: copied whole, never in bands
        const auto gaps = PairBlockedCopy::plan(memory::desc(dense, dt::f32, memory::dims{1, 104}),
                                                memory::desc(dense, dt::bf16, tag::AB8b64a2b));
        QVERIFY(gaps && gaps->band_rows() == 0);
        // a source contiguous along neither blocked dimension
        QVERIFY(!PairBlockedCopy::plan(memory::desc({8, 16, 3, 3}, dt::f32, tag::abcd),
                                       memory::desc({8, 16, 3, 3}, dt::bf16, tag::ABcd8a16b2a)));
    }
};

QTEST_APPLESS_MAIN(TestPairBlockedCopy)
#include "test_pair_blocked_copy.moc"
