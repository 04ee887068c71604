// Runs explorer benchmark on the store bench/store_scale_bench builds (2,000 runs, 20 million
// metric rows, 20 runs of 100,000 steps): how long the Runs workspace takes to open (read every
// run's summary, build the table with the differing settings, the parallel-coordinates and
// scatter plots) and to sort, goal under 1 s; and the frame rate of 20 overlaid 100,000-step
// curves while panning (min/max decimation to the pixel width, QCustomPlot replot, 1200x800
// offscreen), goal >= 30 frames per second, with every row loaded and with the store's levels.
// Wall time and process CPU time are both printed: the build machines are shared.
// Run: build/bench/explorer_bench [--store FILE.lfruns]   (QT_QPA_PLATFORM defaults to offscreen)
#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <QSortFilterProxyModel>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>

#include "charts/metric_plot.h"
#include "charts/qcustomplot_include.h"
#include "document/project_document.h"
#include "explorer/overlay_curves.h"
#include "explorer/run_table_model.h"
#include "explorer/runs_explorer.h"
#include "session/studio_session.h"

using namespace lf::ui;

namespace {

struct Timer {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    timespec cpu{};
    Timer() { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu); }
    double wallS() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(); }
    double cpuS() const {
        timespec now{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
        return double(now.tv_sec - cpu.tv_sec) + double(now.tv_nsec - cpu.tv_nsec) / 1e9;
    }
};

const char* verdict(bool ok) { return ok ? "meets" : "MISSES"; }

void openAndSort(const std::string& store) {
    lf::ui::ProjectDocument doc;
    const std::filesystem::path p(store);
    doc.reset(lf::Project{}, QString::fromStdString((p.parent_path() / (p.stem().string() + ".lfproj")).string()));
    StudioSession session(&doc);
    Timer open;
    RunsExplorer explorer(&session);
    explorer.resize(1600, 1000);
    explorer.show();
    QEventLoop wait;
    QObject::connect(&explorer, &RunsExplorer::refreshed, &wait, &QEventLoop::quit);
    QTimer::singleShot(60000, &wait, &QEventLoop::quit);
    wait.exec();
    QApplication::processEvents();  // the table paints its first rows
    const double openWall = open.wallS(), openCpu = open.cpuS();
    RunTableModel* m = explorer.model();
    std::printf("explorer open: %d runs, %d columns (%lld differing settings): %.3f s wall, %.3f s CPU  (goal < 1 s: %s)\n",
                m->rowCount(), m->columnCount(), (long long)m->snapshot().settingKeys.size(), openWall, openCpu,
                verdict(openWall < 1));
    for (const char* column : {"val_loss (best)", "learning_rate", "Name"}) {
        const int c = m->columnOf(column);
        if (c < 0) {  // a renamed column must not silently drop a figure
            std::fprintf(stderr, "explorer_bench: the table has no column '%s'\n", column);
            std::exit(1);
        }
        Timer sort;
        explorer.proxy()->sort(c, Qt::AscendingOrder);
        QApplication::processEvents();
        std::printf("  sort by %-24s %.3f s wall, %.3f s CPU  (goal < 1 s: %s)\n", column, sort.wallS(), sort.cpuS(),
                    verdict(sort.wallS() < 1));
    }
    Timer filter;
    explorer.setFilter("sweep:lr");
    QApplication::processEvents();
    std::printf("  filter 'sweep:lr' (%d rows): %.3f s wall\n", explorer.proxy()->rowCount(), filter.wallS());
}

// Frames per second while panning 20 overlaid curves across their middle, one 1% shift a frame.
void panning(const std::vector<std::shared_ptr<CurveSeries>>& series, const char* what) {
    MetricPlot plot("loss");
    plot.resize(1200, 800);
    plot.show();
    QApplication::processEvents();
    std::vector<PlotCurve> curves;
    for (std::size_t i = 0; i < series.size(); ++i)
        curves.push_back({QString("run%1").arg(i), QString("run %1").arg(i), series[i], paletteColor(int(i)), false, Qt::SolidLine});
    plot.draw(curves, PlotView{});  // fit once
    const double span = 50000;
    plot.customPlot()->xAxis->setRange(10000, 10000 + span);
    plot.setFollowing(false);
    const int frames = 120;
    Timer t;
    for (int f = 0; f < frames; ++f) {
        const double lo = 10000 + double(f) * span * 0.01;
        plot.customPlot()->xAxis->setRange(lo, lo + span);
        plot.draw(curves, PlotView{});  // decimate the visible range, replot
    }
    const double wall = t.wallS(), cpu = t.cpuS();
    std::size_t points = 0;
    for (const auto& s : series) points += s->size();
    std::printf("overlay %s: %zu curves, %zu points, panning %d frames: %.1f fps wall, %.1f fps CPU  (goal >= 30: %s)\n",
                what, series.size(), points, frames, frames / wall, frames / cpu, verdict(frames / wall >= 30));
}

void overlay(const std::string& path) {
    lf::RunStore store(path, false);
    std::vector<std::shared_ptr<CurveSeries>> rows, levels;
    Timer read;
    for (std::int64_t run = 1; run <= 20; ++run) {
        auto s = std::make_shared<CurveSeries>();
        for (const lf::MetricRow& r : store.metrics_between(run, "train", "loss", 0, INT64_MAX))
            s->append({double(r.step), double(r.step), double(r.step), r.value});
        rows.push_back(s);
    }
    std::printf("overlay rows read: %.3f s wall\n", read.wallS());
    Timer readLevels;
    for (std::int64_t run = 1; run <= 20; ++run) {
        auto s = std::make_shared<CurveSeries>();
        for (const CurvePoint& p : loadOverlayCurve(store, run, rows[std::size_t(run - 1)]->size(), "train", "loss").points)
            s->append(p);
        levels.push_back(s);
    }
    std::printf("overlay levels read: %.4f s wall\n", readLevels.wallS());
    panning(rows, "every row");
    panning(levels, "levels (zoomed out)");
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::string store = "/tmp/layerforge_scale/scale.lfruns";
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--store") store = argv[++i];
    if (!std::filesystem::exists(store)) {
        std::fprintf(stderr, "%s: no store; build it with bench/store_scale_bench first\n", store.c_str());
        return 2;
    }
    openAndSort(store);
    overlay(store);
    return 0;
}
