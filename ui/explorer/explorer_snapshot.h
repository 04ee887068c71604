#pragma once
// One consistent read of a run store for the runs explorer: every run with its summary (final
// and best metrics from the store's summary table, never the metric rows), the settings that
// differ between the runs with each run's value, and the metric names any run reports. Read on
// a worker thread through its own connection; building it for 2,000 runs takes milliseconds.
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <vector>

#include "layerforge/store/run_store.h"

namespace lf::ui {

using NamedValues = QList<QPair<QString, double>>;

struct ExplorerRun {
    RunSummary summary;
    QDateTime started, finished;  // UTC; finished is invalid while the run has not ended
    QStringList settings;         // per ExplorerSnapshot::settingKeys: the value as text, "" where none
    std::vector<double> numbers;  // the same values as numbers, NaN where not a number
    NamedValues finals, bests;    // "loss", "val_loss", ... (RunSummary::final_metrics/best_metrics)
    qint64 id() const { return summary.info.id; }
    const RunInfo& info() const { return summary.info; }
};

struct ExplorerSnapshot {
    QString path;
    QString error;         // the store could not be read: what to tell the user
    bool missing = false;  // no store yet (nothing trained): not an error
    std::vector<ExplorerRun> runs;
    QStringList settingKeys;  // JSON paths of the settings that differ ("/settings/training/batch_size")
    QStringList metrics;      // every epoch-level metric any run reports, sorted
    const ExplorerRun* run(qint64 id) const;
};

// Never throws: a damaged or unreadable store comes back with `error` set.
ExplorerSnapshot readExplorerSnapshot(const QString& path);
// The columns and values of runs already read (what readExplorerSnapshot does after reading).
ExplorerSnapshot explorerSnapshotOf(std::vector<RunSummary> runs);

// The column title of a setting: "/settings/training/batch_size" -> "batch_size",
// "/settings/training/optimizer/learning_rate" -> "learning_rate", ".../optimizer/type" ->
// "optimizer", "/settings/dataset/limit_train" -> "dataset/limit_train".
QString settingTitle(const QString& key);

}  // namespace lf::ui
