#include "explorer/hyperparameter_data.h"

#include <QCollator>
#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace lf::ui {

double HyperAxis::normalized(double v) const {
    if (!std::isfinite(v)) return std::nan("");
    const double lo = log ? std::log10(min) : min, hi = log ? std::log10(max) : max;
    const double x = log ? std::log10(v) : v;
    return hi > lo ? (x - lo) / (hi - lo) : 0.5;
}

int HyperData::indexOf(qint64 run) const {
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i].run == run) return int(i);
    return -1;
}

namespace {

const double* metricOf(const ExplorerRun& r, const QString& metric, bool best) {
    for (const auto& v : best ? r.bests : r.finals)
        if (v.first == metric) return std::isfinite(v.second) ? &v.second : nullptr;
    return nullptr;
}

HyperAxis axisOf(const ExplorerSnapshot& s, int k, const std::vector<const ExplorerRun*>& runs) {
    HyperAxis a;
    a.key = s.settingKeys[k];
    a.title = settingTitle(a.key);
    bool any = false;
    for (const ExplorerRun* r : runs) {
        const double v = r->numbers[std::size_t(k)];
        if (!r->settings[k].isEmpty() && !std::isfinite(v)) a.categorical = true;
        if (!std::isfinite(v)) continue;
        a.min = any ? std::min(a.min, v) : v;
        a.max = any ? std::max(a.max, v) : v;
        any = true;
    }
    if (a.categorical) {
        for (const ExplorerRun* r : runs)
            if (!r->settings[k].isEmpty() && !a.categories.contains(r->settings[k])) a.categories.append(r->settings[k]);
        QCollator order;
        order.setNumericMode(true);
        std::sort(a.categories.begin(), a.categories.end(), order);
        a.min = 0;
        a.max = double(std::max<qsizetype>(a.categories.size() - 1, 0));
    } else {
        a.log = any && a.min > 0 && a.max / a.min >= 100;
    }
    return a;
}

}  // namespace

HyperData hyperparameterData(const ExplorerSnapshot& s, const QString& metric, bool best) {
    HyperData d;
    d.metric = metric;
    d.best = best;
    std::vector<const ExplorerRun*> runs;
    for (const ExplorerRun& r : s.runs)
        if (metricOf(r, metric, best)) runs.push_back(&r);
    for (int k = 0; k < s.settingKeys.size(); ++k) d.axes.push_back(axisOf(s, k, runs));
    for (const ExplorerRun* r : runs) {
        HyperPoint p{r->id(), {}, *metricOf(*r, metric, best)};
        for (std::size_t k = 0; k < d.axes.size(); ++k) {
            const HyperAxis& a = d.axes[k];
            const QString& text = r->settings[int(k)];
            p.values.push_back(a.categorical ? (text.isEmpty() ? std::nan("") : double(a.categories.indexOf(text)))
                                             : r->numbers[k]);
        }
        d.metricMin = d.points.empty() ? p.metric : std::min(d.metricMin, p.metric);
        d.metricMax = d.points.empty() ? p.metric : std::max(d.metricMax, p.metric);
        d.points.push_back(std::move(p));
    }
    return d;
}

void fillMetricChoices(QComboBox* box, const ExplorerSnapshot& s) {
    const QVariant current = box->currentData();
    const QSignalBlocker block(box);
    box->clear();
    for (const QString& m : s.metrics) {
        if (m != QLatin1String("lr")) box->addItem(QCoreApplication::translate("HyperparameterData", "%1 (best)").arg(m), QStringList{m, "best"});
        box->addItem(QCoreApplication::translate("HyperparameterData", "%1 (final)").arg(m), QStringList{m, "final"});
    }
    int at = box->findData(current);
    if (at < 0) at = box->findData(QStringList{"val_loss", "best"});
    if (at < 0) at = box->findData(QStringList{"loss", "best"});
    box->setCurrentIndex(std::max(at, 0));
}

}  // namespace lf::ui
