// Checked size arithmetic (core/checked.h): every shape, parameter count and FLOP count that
// analysis reports is exact, or the node is refused with "shape too large"; nothing wraps. A
// property test over random sizes against 128-bit reference arithmetic, then the cases a hostile
// user tried.
#include <QtTest>

#include <random>

#include "graph_builder.h"
#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/analysis.h"
#include "lf_test_util.h"

using lf::IntList;
using i128 = __int128;

namespace {

constexpr i128 kInt64Max = i128(INT64_MAX);

// Log-uniform in [1, 2^bits): small and huge sizes alike.
std::int64_t random_size(std::mt19937_64& rng, int max_bits = 63) {
    const int bits = std::uniform_int_distribution<int>(1, max_bits)(rng);
    const std::uint64_t top = bits == 64 ? UINT64_MAX : (std::uint64_t(1) << bits) - 1;
    return std::int64_t(std::max<std::uint64_t>(1, std::uniform_int_distribution<std::uint64_t>(0, top)(rng) & INT64_MAX));
}

QString too_large_on(const lf::Analysis& a, const std::string& node) {
    for (const auto& d : a.for_node(node))
        if (d.severity == lf::Severity::Error && d.message.find("shape too large") != std::string::npos)
            return QString::fromStdString(d.message);
    return {};
}

}  // namespace

class TestCheckedSizes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void helpersAreExactOrThrow() {
        QCOMPARE(lf::mul_size(3037000499, 3037000499), std::int64_t(9223372030926249001));
        QCOMPARE(lf::add_size(INT64_MAX - 1, 1), INT64_MAX);
        LF_EXPECT_INPUT_ERROR(lf::mul_size(3037000500, 3037000500), "shape too large");
        LF_EXPECT_INPUT_ERROR(lf::add_size(INT64_MAX, 1), "shape too large");
        LF_EXPECT_INPUT_ERROR(lf::mul_sizes({std::int64_t(1) << 32, std::int64_t(1) << 32}), "shape too large");
        QCOMPARE(lf::Shape({std::int64_t(1) << 20, std::int64_t(1) << 20}).elements(), lf::kMaxShapeElements);
        LF_EXPECT_INPUT_ERROR((lf::Shape{(std::int64_t(1) << 20) + 1, std::int64_t(1) << 20}.elements()), "shape too large");
    }

    // Input(a, b, c) -> Flatten -> Dense(u): either every figure equals the 128-bit reference, or
    // the first node whose size is out of range carries "shape too large" (and nothing after it
    // is shaped). 3,000 random cases, sizes log-uniform up to 2^63.
    void randomDenseChainsAreExactOrRefused() {
        std::mt19937_64 rng(20261201);
        int refused = 0, exact = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            const std::int64_t a = random_size(rng), b = random_size(rng, 40), c = random_size(rng, 20);
            const std::int64_t u = random_size(rng, 24);  // Dense.units allows up to 2^24
            GraphBuilder g;
            const auto in = g.add("Input", {{"shape", IntList{a, b, c}}});
            const auto flat = g.add("Flatten", {}, {in});
            const auto dense = g.add("Dense", {{"units", u}}, {flat});
            const lf::Analysis an = lf::analyze(g.graph);
            const QString where = QString("trial %1: [%2, %3, %4] units %5").arg(trial).arg(a).arg(b).arg(c).arg(u);
            const i128 elements = i128(a) * b * c;  // at most 2^123: exact in 128 bits
            if (elements > lf::kMaxShapeElements) {
                QVERIFY2(!too_large_on(an, in).isEmpty(), qPrintable(where));
                QVERIFY2(!an.nodes.at(dense).shaped, qPrintable(where));
                ++refused;
                continue;
            }
            QVERIFY2(an.nodes.at(flat).shaped && i128(an.nodes.at(flat).layer.output[0]) == elements, qPrintable(where));
            const i128 kernel = elements * u;
            if (kernel > lf::kMaxShapeElements) {
                QVERIFY2(!too_large_on(an, dense).isEmpty(), qPrintable(where));
                QVERIFY2(!an.ok() && an.total_params == 0, qPrintable(where));
                ++refused;
                continue;
            }
            QVERIFY2(an.ok(), qPrintable(where + ": " + QString::fromStdString(an.error_report())));
            QCOMPARE(i128(an.total_params), kernel + u);
            QCOMPARE(i128(an.flops), 2 * kernel);
            ++exact;
        }
        QVERIFY(refused > 300 && exact > 300);  // both outcomes were exercised
    }

    // Input(h, w, c) -> Conv2D(f, k x k): output, kernel and FLOPs exact or refused, FLOPs
    // being the figure that passes 2^63 first.
    void randomConvolutionsAreExactOrRefused() {
        std::mt19937_64 rng(7);
        int refused = 0, exact = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            const std::int64_t k = std::uniform_int_distribution<std::int64_t>(1, 64)(rng);
            const std::int64_t h = k - 1 + random_size(rng, 30), w = k - 1 + random_size(rng, 30);
            const std::int64_t c = random_size(rng, 30), f = random_size(rng, 16);
            GraphBuilder g;
            const auto in = g.add("Input", {{"shape", IntList{h, w, c}}});
            const auto conv = g.add("Conv2D", {{"filters", f}, {"kernel_size", IntList{k, k}}}, {in});
            const lf::Analysis an = lf::analyze(g.graph);
            const QString where = QString("trial %1: [%2, %3, %4] filters %5 kernel %6").arg(trial).arg(h).arg(w).arg(c).arg(f).arg(k);
            const i128 oh = h - k + 1, ow = w - k + 1;
            const i128 input = i128(h) * w * c, output = oh * ow * f, kernel = i128(k) * k * c * f;
            const i128 flops = 2 * oh * ow * f * k * k * c;
            if (input > lf::kMaxShapeElements) {
                QVERIFY2(!too_large_on(an, in).isEmpty(), qPrintable(where));
                ++refused;
                continue;
            }
            if (output > lf::kMaxShapeElements || kernel > lf::kMaxShapeElements || flops > kInt64Max) {
                QVERIFY2(!too_large_on(an, conv).isEmpty(), qPrintable(where + ": " + QString::fromStdString(an.error_report())));
                QVERIFY2(!an.nodes.at(conv).shaped, qPrintable(where));
                ++refused;
                continue;
            }
            QVERIFY2(an.ok(), qPrintable(where + ": " + QString::fromStdString(an.error_report())));
            const lf::Shape out = an.nodes.at(conv).layer.output;
            QVERIFY2(out.rank() == 3 && out[0] == oh && out[1] == ow && out[2] == f, qPrintable(where));
            QCOMPARE(i128(an.total_params), kernel + f);
            QCOMPARE(i128(an.flops), flops);
            ++exact;
        }
        QVERIFY(refused > 300 && exact > 300);
    }

    // The probe's cases: each refused on the Input with "shape too large", none wrapped.
    void wrappingInputsAreRefusedOnTheInput() {
        const std::int64_t m = 2147483647;
        for (const IntList& shape : {IntList{m, m, m}, IntList{std::int64_t(1) << 32, std::int64_t(1) << 32, 1},
                                     IntList{(std::int64_t(1) << 62) + 28, 28, 1}}) {
            GraphBuilder g = mlp_builder(shape);
            const lf::Analysis an = lf::analyze(g.graph);
            QVERIFY(!an.ok());
            QVERIFY2(!too_large_on(an, "input_0").isEmpty(), qPrintable(QString::fromStdString(an.error_report())));
            QVERIFY(!an.nodes.at("flatten_1").shaped);
            QCOMPARE(an.total_params, std::int64_t(0));
        }
    }

    // Totals are checked too: three convolutions of about 4.6e18 FLOPs each, from one input,
    // fit one by one but not summed; the one whose sum passes 2^63 is refused.
    void totalsAreChecked() {
        GraphBuilder g;
        const auto in = g.add("Input", {{"shape", IntList{1 << 15, 1 << 15, 1 << 10}}});
        for (int i = 0; i < 3; ++i) g.add("Conv2D", {{"filters", std::int64_t(512)}, {"kernel_size", IntList{64, 64}}}, {in});
        const lf::Analysis an = lf::analyze(g.graph);
        QVERIFY(an.nodes.at("conv2d_1").shaped);
        QVERIFY(an.nodes.at("conv2d_1").layer.flops > INT64_MAX / 3);  // three cannot add up
        QVERIFY2(!too_large_on(an, "conv2d_2").isEmpty() || !too_large_on(an, "conv2d_3").isEmpty(),
                 qPrintable(QString::fromStdString(an.error_report())));
        QVERIFY(an.flops <= INT64_MAX && an.flops >= an.nodes.at("conv2d_1").layer.flops);
    }
};

QTEST_APPLESS_MAIN(TestCheckedSizes)
#include "test_checked_sizes.moc"
