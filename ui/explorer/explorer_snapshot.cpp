#include "explorer/explorer_snapshot.h"

#include <QFileInfo>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "layerforge/store/run_diff.h"

namespace lf::ui {

namespace {

NamedValues named(const std::vector<std::pair<std::string, double>>& values) {
    NamedValues out;
    for (const auto& [k, v] : values) out.append({QString::fromStdString(k), v});
    return out;
}

// A flattened value as a cell shows it: strings without their quotes.
QString cellText(const std::string& json) {
    const nlohmann::json v = nlohmann::json::parse(json, nullptr, false);
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(json);
}

double cellNumber(const std::string& json) {
    const nlohmann::json v = nlohmann::json::parse(json, nullptr, false);
    return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

const ExplorerRun* ExplorerSnapshot::run(qint64 id) const {
    for (const ExplorerRun& r : runs)
        if (r.id() == id) return &r;
    return nullptr;
}

QString settingTitle(const QString& key) {
    QString t = key.startsWith(QLatin1String("/settings/")) ? key.mid(10) : key.mid(key.startsWith('/') ? 1 : 0);
    // The training fields by the names the Train page and `sweep` use; the full key is the tooltip.
    if (t.startsWith(QLatin1String("training/"))) t = t.mid(9);
    if (t == QLatin1String("optimizer/type")) return QStringLiteral("optimizer");
    if (t.startsWith(QLatin1String("optimizer/"))) t = t.mid(10);
    return t;
}

ExplorerSnapshot explorerSnapshotOf(std::vector<RunSummary> runs) {
    ExplorerSnapshot s;
    std::vector<FlatSettings> flat;
    flat.reserve(runs.size());
    for (const RunSummary& r : runs) flat.push_back(flat_settings(r.info));
    const std::vector<std::string> keys = runs.size() > 1 ? differing_settings(flat) : std::vector<std::string>{};
    for (const std::string& k : keys) s.settingKeys.append(QString::fromStdString(k));
    std::map<QString, bool> metrics;
    s.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        ExplorerRun r;
        r.summary = std::move(runs[i]);
        r.started = QDateTime::fromString(QString::fromStdString(r.summary.info.created), Qt::ISODate);
        r.finished = QDateTime::fromString(QString::fromStdString(r.summary.info.finished), Qt::ISODate);
        for (const std::string& k : keys) {
            const auto it = flat[i].find(k);
            r.settings.append(it == flat[i].end() ? QString() : cellText(it->second));
            r.numbers.push_back(it == flat[i].end() ? std::nan("") : cellNumber(it->second));
        }
        r.finals = named(r.summary.final_metrics());
        r.bests = named(r.summary.best_metrics());
        for (const auto& m : r.finals) metrics[m.first] = true;
        s.runs.push_back(std::move(r));
    }
    for (const auto& m : metrics) s.metrics.append(m.first);
    return s;
}

ExplorerSnapshot readExplorerSnapshot(const QString& path) {
    ExplorerSnapshot s;
    if (!QFileInfo::exists(path)) {
        s.path = path;
        s.missing = true;
        return s;
    }
    try {
        RunStore store(path.toStdString(), /*create=*/false, /*busy_timeout_ms=*/2000);
        s = explorerSnapshotOf(store.run_summaries());
    } catch (const std::exception& e) {
        s = ExplorerSnapshot{};
        s.error = QString::fromStdString(e.what());
    }
    s.path = path;
    return s;
}

}  // namespace lf::ui
