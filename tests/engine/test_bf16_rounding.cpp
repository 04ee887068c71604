// The CPU backend's bulk bfloat16 conversions (backend/cpu/bf16.h) against core/bfloat16.h's
// scalar rounding, bit for bit, on every class of float: ties, subnormals (which the AVX512-BF16
// instruction alone would flush to zero), values that round to infinity, infinities, NaNs of
// both signs, and random bit patterns; at every length around the vectors' 32 and their tails,
// at unaligned starts, and cut between two threads.
#include <QtTest>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "backend/cpu/bf16.h"
#include "backend/cpu/bf16_avx512.h"
#include "core/slices.h"

namespace {

std::vector<float> every_class(std::size_t n, unsigned seed) {
    const std::uint32_t specials[] = {
        0x00000001u, 0x807fffffu, 0x00400000u, 0x80000001u, 0x00008000u,  // subnormals
        0x00800000u, 0x80800000u,                                          // the smallest normals
        0x3f808000u, 0x3f818000u, 0xbf808000u, 0x3f808001u,                // ties (to even) and past one
        0x7f7fffffu, 0xff7fffffu, 0x7f7f8000u,                             // round to infinity
        0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,   // infinities, NaNs (one signalling)
        0x00000000u, 0x80000000u};
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    for (float& x : v) x = std::bit_cast<float>(rng() % 3 ? std::uint32_t(rng()) : specials[rng() % std::size(specials)]);
    return v;
}

// core/bfloat16.h's rounding of each value: the reference.
std::vector<lf::bf16_t> rounded(const std::vector<float>& v) {
    std::vector<lf::bf16_t> b(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) b[i] = lf::to_bfloat16(v[i]);
    return b;
}

bool is_nan(lf::bf16_t b) { return (b & 0x7fff) > 0x7f80; }

}  // namespace

class TestBf16Rounding : public QObject {
    Q_OBJECT

    static void expect_all_lengths(int threads) {
        const lf::core_detail::ThreadCount scope(threads);
        const std::vector<float> src = every_class(70000, unsigned(threads));
        const std::vector<lf::bf16_t> want = rounded(src);
        const std::vector<float> other = every_class(70000, 99);
        std::vector<std::size_t> lengths;
        for (std::size_t n = 0; n <= 100; ++n) lengths.push_back(n);
        for (std::size_t n : {127, 128, 129, 1000, 4099, 65537}) lengths.push_back(n);
        for (std::size_t n : lengths)
            for (std::size_t start : {0, 1, 7, 16}) {
                std::vector<lf::bf16_t> got(n + 1, 0xdead);
                lf::to_bf16(src.data() + start, got.data(), n);
                for (std::size_t i = 0; i < n; ++i)
                    if (got[i] != want[start + i])
                        QFAIL(qPrintable(QString("to_bf16 of %1 from %2, element %3 (%4): %5, want %6")
                                             .arg(n).arg(start).arg(i)
                                             .arg(std::bit_cast<std::uint32_t>(src[start + i]), 8, 16, QChar('0'))
                                             .arg(got[i], 4, 16).arg(want[start + i], 4, 16)));
                QCOMPARE(got[n], lf::bf16_t(0xdead));  // nothing written past the end

                std::vector<float> wide(n + 1, -7.f);
                lf::from_bf16(want.data() + start, wide.data(), n);
                for (std::size_t i = 0; i < n; ++i)
                    QCOMPARE(std::bit_cast<std::uint32_t>(wide[i]), std::uint32_t(want[start + i]) << 16);
                QCOMPARE(wide[n], -7.f);

                std::vector<lf::bf16_t> sum(want.begin() + std::ptrdiff_t(start), want.begin() + std::ptrdiff_t(start + n));
                const std::vector<lf::bf16_t> addend = rounded({other.begin(), other.begin() + std::ptrdiff_t(n)});
                lf::add_bf16(sum.data(), addend.data(), n);
                for (std::size_t i = 0; i < n; ++i) {
                    const lf::bf16_t a = want[start + i], b = addend[i];
                    const lf::bf16_t w = lf::to_bfloat16(lf::from_bfloat16(a) + lf::from_bfloat16(b));
                    // Of two NaN operands either may pass through (the compiler may swap them);
                    // any other sum, NaN or not, must be the same bits.
                    const bool either_nan = is_nan(a) && is_nan(b) && is_nan(sum[i]);
                    if (sum[i] != w && !either_nan)
                        QFAIL(qPrintable(QString("add_bf16 of %1, element %2: %3, want %4").arg(n).arg(i).arg(sum[i], 4, 16).arg(w, 4, 16)));
                }
            }
    }

private slots:
    void initTestCase() {
        qInfo("AVX512-BF16 loops: %s", lf::cpu_has_avx512_bf16() ? "yes" : "no (the portable loops are checked)");
    }
    void every_float_rounds_as_core_does_on_one_thread() { expect_all_lengths(1); }
    void every_float_rounds_as_core_does_on_two_threads() { expect_all_lengths(2); }

    // Sums of small values land among the subnormals, which the instruction alone would flush.
    void subnormal_sums_round_as_core_does() {
        std::vector<lf::bf16_t> a(64), b(64);
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = lf::to_bfloat16(std::bit_cast<float>(std::uint32_t(0x00810000u + (i << 16))));
            b[i] = lf::to_bfloat16(-std::bit_cast<float>(std::uint32_t(0x00800000u + (i << 16))));
        }
        std::vector<lf::bf16_t> sum = a;
        lf::add_bf16(sum.data(), b.data(), sum.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(sum[i], lf::to_bfloat16(lf::from_bfloat16(a[i]) + lf::from_bfloat16(b[i])));
        QVERIFY(sum[0] != 0);  // 2^-133: subnormal, kept
    }
};

QTEST_APPLESS_MAIN(TestBf16Rounding)
#include "test_bf16_rounding.moc"
