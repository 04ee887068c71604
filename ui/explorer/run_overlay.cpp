#include "explorer/run_overlay.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "charts/qcustomplot_include.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

// "train/loss" -> "loss", "val/loss" -> "val_loss", "epoch/loss" -> "loss (epoch)".
QString metricLabel(const MetricSummary& m) {
    const QString name = QString::fromStdString(m.name);
    if (m.split == "train") return name;
    if (m.split == "epoch") return RunOverlay::tr("%1 (epoch)").arg(name);
    return QString::fromStdString(m.split) + QLatin1Char('_') + name;
}

QString metricKey(const MetricSummary& m) { return QString::fromStdString(m.split + "/" + m.name); }

}  // namespace

RunOverlay::RunOverlay(QWidget* parent)
    : QWidget(parent),
      metric_(new QComboBox),
      plot_(new MetricPlot(QString())),
      hint_(new QLabel(tr("Select runs in the table to overlay their curves."))) {
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setEnabled(false);  // drawn in the palette's disabled text colour
    plot_->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Metric")));
    bar->addWidget(metric_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    layout->addWidget(hint_, 1);
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        plot_->customPlot()->yAxis->setLabel(metric_->currentText());
        plot_->setFollowing(true);  // another metric: fit it
        reload(std::nullopt);
    });
    connect(plot_, &MetricPlot::viewChanged, this, &RunOverlay::onViewChanged);
}

QList<qint64> RunOverlay::runs() const {
    QList<qint64> ids;
    for (const Run& r : runs_) ids.append(r.id);
    return ids;
}

bool RunOverlay::drawnFromLevels(qint64 run) const {
    for (const Run& r : runs_)
        if (r.id == run) return r.fromLevels;
    return false;
}

std::size_t RunOverlay::pointCount(qint64 run) const {
    for (const Run& r : runs_)
        if (r.id == run && r.series) return r.series->size();
    return 0;
}

void RunOverlay::setRuns(const std::vector<const ExplorerRun*>& runs) {
    runs_.clear();
    for (const ExplorerRun* r : runs)
        runs_.push_back({r->id(), QStringLiteral("#%1 %2").arg(r->id()).arg(QString::fromStdString(r->info().name)),
                         r->summary.metrics, nullptr, false});
    plot_->setVisible(!runs_.empty());
    hint_->setVisible(runs_.empty());
    plot_->setFollowing(true);
    fillMetrics();  // reloads through currentIndexChanged when the choice changes
    reload(std::nullopt);
}

// Every metric the runs report, the training loss first when there is one.
void RunOverlay::fillMetrics() {
    const QString current = metric_->currentData().toString();
    std::map<QString, QString> all;  // key -> label
    for (const Run& r : runs_)
        for (const MetricSummary& m : r.metrics) all[metricKey(m)] = metricLabel(m);
    const QSignalBlocker block(metric_);
    metric_->clear();
    for (const auto& [key, label] : all) metric_->addItem(label, key);
    int at = metric_->findData(current);
    if (at < 0) at = metric_->findData(QStringLiteral("train/loss"));
    metric_->setCurrentIndex(std::max(at, 0));
    plot_->customPlot()->yAxis->setLabel(metric_->currentText());
}

void RunOverlay::reload(std::optional<StepWindow> window) {
    requested_ = window;
    if (reading_) {
        readAgain_ = true;
        return;
    }
    const QStringList key = metric_->currentData().toString().split(QLatin1Char('/'));
    if (runs_.empty() || key.size() != 2) {
        for (Run& r : runs_) r.series.reset();
        redraw();
        return;
    }
    struct Request {
        std::int64_t run, rows;
    };
    std::vector<Request> requests;
    for (const Run& r : runs_) {
        std::int64_t rows = 0;
        for (const MetricSummary& m : r.metrics)
            if (metricKey(m) == metric_->currentData().toString()) rows = m.count;
        requests.push_back({r.id, rows});
    }
    reading_ = true;
    const std::string path = path_.toStdString(), split = key[0].toStdString(), name = key[1].toStdString();
    runInBackground(
        this,
        [=] {
            std::vector<OverlayCurve> curves;
            try {
                RunStore store(path, /*create=*/false, 2000);
                for (const Request& r : requests)
                    curves.push_back(r.rows ? loadOverlayCurve(store, r.run, r.rows, split, name, window)
                                            : OverlayCurve{r.run, {}, false});
            } catch (const std::exception&) {  // the store went away: the explorer's banner says so
                curves.clear();
            }
            return curves;
        },
        [this, window](std::vector<OverlayCurve> curves) {
            reading_ = false;
            if (readAgain_) {  // the view or the runs changed meanwhile: read what was asked last
                readAgain_ = false;
                reload(requested_);
                return;
            }
            window_ = window;
            for (Run& r : runs_) {
                r.series = std::make_shared<CurveSeries>();
                r.fromLevels = false;
                for (const OverlayCurve& c : curves) {
                    if (c.run != r.id) continue;
                    for (const CurvePoint& p : c.points) r.series->append(p);
                    r.fromLevels = c.fromLevels;
                }
            }
            redraw();
            Q_EMIT drawn();
        });
}

void RunOverlay::onViewChanged() {
    const bool anyLevels = std::any_of(runs_.begin(), runs_.end(), [](const Run& r) { return r.fromLevels; });
    if (plot_->following()) {
        if (window_) return reload(std::nullopt);
        return redraw();
    }
    const QCPRange range = plot_->customPlot()->xAxis->range();
    if (wantsRows(range.lower, range.upper)) {
        const bool inside = window_ && range.lower >= double(window_->first) && range.upper <= double(window_->last);
        if ((anyLevels || window_) && !inside) {
            const double span = range.size();
            return reload(StepWindow{std::int64_t(std::max(0.0, range.lower - span)), std::int64_t(range.upper + span)});
        }
    } else if (window_) {
        return reload(std::nullopt);
    }
    redraw();
}

void RunOverlay::redraw() {
    std::vector<PlotCurve> curves;
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].series && !runs_[i].series->empty())
            curves.push_back({QStringLiteral("run%1").arg(runs_[i].id), runs_[i].label, runs_[i].series,
                              paletteColor(int(i)), false, Qt::SolidLine});
    plot_->draw(curves, PlotView{});
}

}  // namespace lf::ui
