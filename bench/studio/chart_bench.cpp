// Live-chart benchmark: the cost of appending training steps and of redrawing the charts with
// 10^3..10^6 points per curve (offscreen QCustomPlot, 1200x800 widget), and of smoothing and
// decimation alone (the Qt-free math). A live redraw is one appended step followed by a
// replot, as the 30 Hz timer does it; a full redraw follows a change of the smoothing factor
// (every point smoothed again and the pyramid rebuilt).
// Times are process CPU time (see CpuTimer).
// Run: build/bench/chart_bench [max_points]   (QT_QPA_PLATFORM defaults to offscreen)
#include <QApplication>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "charts/curve_series.h"
#include "charts/ema_smoothing.h"
#include "charts/minmax_pyramid.h"
#include "charts/training_charts.h"

using namespace lf::ui;

namespace {

// Process CPU time: the build machines are shared, so wall time mostly measures the neighbours.
struct CpuTimer {
    timespec start{};
    CpuTimer() { restart(); }
    void restart() { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start); }
    double ms() const {
        timespec now{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
        return double(now.tv_sec - start.tv_sec) * 1e3 + double(now.tv_nsec - start.tv_nsec) / 1e6;
    }
};

double ms(const CpuTimer& t) { return t.ms(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double lossAt(std::int64_t s) { return 2.0 / (1.0 + 1e-4 * double(s)) + 0.05 * std::sin(double(s) * 0.37); }

lf::Metrics metricsAt(std::int64_t s) { return {{"loss", lossAt(s)}, {"accuracy", 1 - lossAt(s) / 3}}; }

struct WidgetCost {
    double appendUsPerStep, liveRedrawMs, fullRedrawMs, drawnPoints;
};

WidgetCost widgetCost(std::int64_t n) {
    TrainingCharts charts;
    charts.resize(1200, 800);
    charts.show();
    QApplication::processEvents();
    charts.beginLiveRun("bench");
    CpuTimer t;
    for (std::int64_t s = 1; s <= n; ++s) charts.addStep(s, double(s) / 1000.0, 0.01 * double(s), metricsAt(s));
    const double append = ms(t) * 1000.0 / double(n);
    charts.replotNow();
    std::vector<double> live, full;
    for (int i = 0; i < 15; ++i) {
        t.restart();
        charts.addStep(n + 1 + i, double(n + 1 + i) / 1000.0, 0.01 * double(n + 1 + i), metricsAt(n + 1 + i));
        charts.replotNow();
        live.push_back(ms(t));
    }
    for (int i = 0; i < 5; ++i) {
        t.restart();
        charts.setSmoothing(i % 2 ? 0.6 : 0.9);
        charts.replotNow();
        full.push_back(ms(t));
    }
    return {append, median(live), median(full), double(charts.drawnPoints("loss").size())};
}

struct MathCost {
    double appendUsPerPoint, smoothMs, pyramidMs, selectMs;
};

MathCost mathCost(std::int64_t n) {
    std::vector<double> values(std::size_t(n), 0.0);
    for (std::int64_t s = 0; s < n; ++s) values[std::size_t(s)] = lossAt(s + 1);
    CpuTimer t;
    CurveSeries curve(0.6);
    for (std::int64_t s = 0; s < n; ++s) curve.append({double(s + 1), double(s) / 1000.0, 0.01 * double(s), values[std::size_t(s)]});
    const double append = ms(t) * 1000.0 / double(n);
    t.restart();
    std::vector<double> smooth = smoothed(values, 0.6);
    const double smoothMs = ms(t);
    MinMaxPyramid pyramid;
    t.restart();
    pyramid.assign(smooth);
    const double pyramidMs = ms(t);
    std::vector<double> selects;
    for (int i = 0; i < 20; ++i) {
        t.restart();
        volatile std::size_t count = pyramid.select(0, std::size_t(n), 1100).size();
        (void)count;
        selects.push_back(ms(t));
    }
    return {append, smoothMs, pyramidMs, median(selects)};
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::int64_t maxPoints = argc > 1 ? std::atoll(argv[1]) : 1000000;

    std::printf("TrainingCharts: 2 curves (loss, accuracy) of N points each, 1200x800 offscreen;\n"
                "math: one curve of N points alone (smoothing 0.6, 1100 pixel columns). CPU ms.\n");
    std::printf("%9s | %11s %12s %12s %7s | %11s %9s %9s %9s\n", "N", "append us", "live redraw", "full redraw",
                "drawn", "append us", "smooth", "pyramid", "select");
    for (std::int64_t n = 1000; n <= maxPoints; n *= 10) {
        const WidgetCost w = widgetCost(n);
        const MathCost m = mathCost(n);
        std::printf("%9lld | %11.3f %12.2f %12.2f %7.0f | %11.4f %9.3f %9.3f %9.4f\n", (long long)n, w.appendUsPerStep,
                    w.liveRedrawMs, w.fullRedrawMs, w.drawnPoints, m.appendUsPerPoint, m.smoothMs, m.pyramidMs, m.selectMs);
    }
    return 0;
}
