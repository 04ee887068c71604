// The charts' Qt-free curve math: debiased exponential smoothing, min/max decimation, the
// live curve's bookkeeping, run-store rows turned into curves, and the CSV writer.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>

#include "charts/chart_csv.h"
#include "charts/curve_series.h"
#include "charts/ema_smoothing.h"
#include "charts/minmax_pyramid.h"
#include "charts/run_curves.h"
#include "layerforge/store/run_store.h"

using namespace lf;
using namespace lf::ui;

namespace {

std::vector<double> noisy(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::exp(-double(i) / double(n)) + 0.1 * noise(rng);
    return v;
}

// Every aligned block's smallest and largest value must be among the selected points.
void checkEnvelope(const std::vector<double>& v, std::size_t first, std::size_t last, std::size_t columns,
                   const std::vector<std::size_t>& picked) {
    const std::size_t bucket = MinMaxPyramid::bucketSize(last - first, columns);
    std::set<double> values;
    for (std::size_t i : picked) values.insert(v[i]);
    for (std::size_t start = first / bucket * bucket; start < last; start += bucket) {
        const std::size_t end = std::min(start + bucket, v.size());
        const auto [lo, hi] = std::minmax_element(v.begin() + long(start), v.begin() + long(end));
        QVERIFY2(values.count(*lo) && values.count(*hi), qPrintable(QString("bucket at %1").arg(start)));
    }
}

}  // namespace

class TestCurveMath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smoothingZeroIsIdentity() {
        const std::vector<double> v = noisy(100, 1);
        QCOMPARE(smoothed(v, 0.0), v);
    }

    void smoothingKeepsConstantSeriesConstant() {
        for (double f : {0.3, 0.9, 0.999}) {
            for (double y : smoothed(std::vector<double>(2000, 0.7), f)) QVERIFY(std::abs(y - 0.7) < 1e-12);
        }
    }

    void smoothingKnownThreePoints() {
        // f = 0.5: last = 0.5, 1.25, 2.125; debias 1 - 0.5^n = 0.5, 0.75, 0.875.
        const std::vector<double> s = smoothed({1, 2, 3}, 0.5);
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0], 1.0);
        QCOMPARE(s[1], 5.0 / 3.0);
        QCOMPARE(s[2], 17.0 / 7.0);
        // f = 0.9: 0.1 / 0.1 = 1; (0.09 + 0.2) / 0.19; (0.261 + 0.3) / 0.271.
        const std::vector<double> t = smoothed({1, 2, 3}, 0.9);
        QVERIFY(std::abs(t[1] - 0.29 / 0.19) < 1e-12);
        QVERIFY(std::abs(t[2] - 0.561 / 0.271) < 1e-12);
    }

    void smoothingPassesNonFiniteThrough() {
        const std::vector<double> s = smoothed({1, std::nan(""), 3}, 0.5);
        QVERIFY(std::isnan(s[1]));
        QVERIFY(std::abs(s[2] - 1.75 / 0.75) < 1e-12);  // the NaN does not count as a point
    }

    void smoothingFactorIsClamped() {
        QCOMPARE(EmaSmoother(1.5).factor(), kMaxSmoothing);
        QCOMPARE(EmaSmoother(-1).factor(), 0.0);
    }

    void decimationKeepsBucketExtremesAndEnds() {
        const std::vector<double> v = noisy(100003, 2);
        MinMaxPyramid p;
        p.assign(v);
        const std::vector<std::size_t> all = p.select(0, v.size(), 500);
        QVERIFY(std::is_sorted(all.begin(), all.end()));
        QCOMPARE(all.front(), std::size_t(0));
        QCOMPARE(all.back(), v.size() - 1);
        checkEnvelope(v, 0, v.size(), 500, all);
        const std::vector<std::size_t> part = p.select(12345, 67890, 300);
        QVERIFY(std::find(part.begin(), part.end(), std::size_t(12345)) != part.end());
        QVERIFY(std::find(part.begin(), part.end(), std::size_t(67889)) != part.end());
        checkEnvelope(v, 12345, 67890, 300, part);
    }

    void decimationOfAMillionPointsIsAFewThousand() {
        const std::vector<double> v = noisy(1000000, 3);
        MinMaxPyramid p;
        for (double y : v) p.append(y);  // the live path: one point at a time
        const std::vector<std::size_t> picked = p.select(0, v.size(), 1500);
        QVERIFY2(picked.size() <= 3200 && picked.size() >= 1500, qPrintable(QString::number(picked.size())));
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        QVERIFY(std::find(picked.begin(), picked.end(), std::size_t(lo - v.begin())) != picked.end());
        QVERIFY(std::find(picked.begin(), picked.end(), std::size_t(hi - v.begin())) != picked.end());
    }

    void incrementalPyramidEqualsRebuilt() {
        const std::vector<double> v = noisy(5000, 4);
        MinMaxPyramid grown, built;
        built.assign(v);
        for (double y : v) grown.append(y);
        for (auto [first, last, cols] : {std::tuple{0, 5000, 100}, {17, 4999, 64}, {4000, 5000, 10}, {0, 3, 10}})
            QCOMPARE(grown.select(first, last, cols), built.select(first, last, cols));
        const std::vector<std::size_t> tail = grown.select(4990, 5000, 100);  // short: every point
        QCOMPARE(tail.size(), std::size_t(10));
    }

    void decimationIgnoresNaNAsExtreme() {
        MinMaxPyramid p;
        p.assign({std::nan(""), 1, std::nan(""), 5, 2, std::nan(""), -3, 4});
        const std::vector<std::size_t> picked = p.select(0, 8, 1);  // one bucket of 8
        QCOMPARE(picked, (std::vector<std::size_t>{0, 3, 6, 7}));  // first, max 5, min -3, last
    }

    void curveSmoothsIncrementallyAndResumes() {
        CurveSeries c(0.8);
        const std::vector<double> v = noisy(200, 5);
        for (std::size_t i = 0; i < v.size(); ++i) c.append({double(i + 1), (i + 1) / 50.0, 0.1 * i, v[i]});
        QCOMPARE(c.drawn(), smoothed(v, 0.8));
        QCOMPARE(c.raw(), v);
        QVERIFY(c.smoothed());
        c.setSmoothing(0.5);  // a new factor, then live appends continue the same average
        c.append({201, 4.02, 20.0, 1.0});
        std::vector<double> more = v;
        more.push_back(1.0);
        QCOMPARE(c.drawn(), smoothed(more, 0.5));
        c.clear();
        for (std::size_t i = 0; i < v.size(); ++i) c.append({double(i + 1), (i + 1) / 50.0, 0.1 * i, v[i]});
        c.setSmoothing(0);
        QVERIFY(!c.smoothed());
        QCOMPARE(c.drawn(), v);
        c.append({101, 2.02, 30, 9.0});  // a resumed run continues from step 100
        QCOMPARE(c.size(), std::size_t(101));
        QCOMPARE(c.raw().back(), 9.0);
        QCOMPARE(c.x(XAxisMode::Step)[99], 100.0);
        QCOMPARE(c.x(XAxisMode::Epoch).back(), 2.02);
        QCOMPARE(c.nearest(XAxisMode::Step, 42.4), std::size_t(41));
        const auto [first, last] = c.visibleRange(XAxisMode::Step, 10, 20);
        QCOMPARE(first, std::size_t(8));  // one point beyond each edge
        QCOMPARE(last, std::size_t(21));
    }

    void runRowsBecomeCurvesWithFractionalEpochs() {
        // Two epochs of 4 steps; the second epoch's validation and wall times.
        std::vector<MetricRow> rows;
        for (int s = 1; s <= 8; ++s) rows.push_back({1, s, s <= 4 ? 1 : 2, "train", "loss", 1.0 / s, 100.0 + s});
        rows.push_back({1, 4, 1, "epoch", "loss", 0.5, 104.5});
        rows.push_back({1, 4, 1, "val", "loss", 0.6, 105});
        rows.push_back({1, 8, 2, "val", "loss", 0.4, 110});
        const NamedPoints curves = curvesFromRows(rows);
        QCOMPARE(curves.size(), std::size_t(2));
        QCOMPARE(curves[0].first, std::string("loss"));
        QCOMPARE(curves[1].first, std::string("val_loss"));
        const std::vector<CurvePoint>& loss = curves[0].second;
        QCOMPARE(loss.size(), std::size_t(8));
        QCOMPARE(loss[0].epoch, 0.25);
        QCOMPARE(loss[3].epoch, 1.0);
        QCOMPARE(loss[5].epoch, 1.5);
        QCOMPARE(loss[7].epoch, 2.0);
        QCOMPARE(loss[0].seconds, 0.0);
        QCOMPARE(loss[7].seconds, 7.0);
        QCOMPARE(curves[1].second[1].epoch, 2.0);
        QCOMPARE(curves[1].second[1].value, 0.4);
    }

    void csvHasEveryRawPoint() {
        CurveSeries c(0.9);
        c.append({1, 0.5, 0.25, 0.5});
        c.append({2, 1, 0.5, std::nan("")});
        c.append({3, 1.5, 0.75, 0.1});
        std::ostringstream out;
        writeCurvesCsv(out, {{"live", "loss", &c}, {"run, \"2\"", "val_loss", &c}});
        QCOMPARE(QString::fromStdString(out.str()),
                 QString("run,series,step,epoch,seconds,value\n"
                         "live,loss,1,0.5,0.25,0.5\n"
                         "live,loss,2,1,0.5,\n"
                         "live,loss,3,1.5,0.75,0.1\n"
                         "\"run, \"\"2\"\"\",val_loss,1,0.5,0.25,0.5\n"
                         "\"run, \"\"2\"\"\",val_loss,2,1,0.5,\n"
                         "\"run, \"\"2\"\"\",val_loss,3,1.5,0.75,0.1\n"));
    }
};

QTEST_APPLESS_MAIN(TestCurveMath)
#include "test_curve_math.moc"
