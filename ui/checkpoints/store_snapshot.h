#pragma once
// One consistent read of a run store for the checkpoint browser: every run and every checkpoint
// (without blobs), each checkpoint's metrics parsed and whether it is its run's best. Read on a
// worker thread through its own connection, so the GUI never waits on SQLite.
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <vector>

#include "layerforge/store/run_store.h"

namespace lf::ui {

struct CheckpointRow {
    CheckpointInfo info;
    QString runName;
    QList<QPair<QString, double>> metrics;  // in the order the trainer wrote them
    bool best = false;                      // the run's best by val_loss (or loss)
    QDateTime created;                      // UTC
};

struct StoreSnapshot {
    QString path;
    QString error;   // the store could not be read: what to tell the user
    bool missing = false;  // no store yet (nothing trained): not an error
    std::vector<RunInfo> runs;
    std::vector<CheckpointRow> checkpoints;
    const RunInfo* run(std::int64_t id) const;
};

// Never throws: a damaged or unreadable store comes back with `error` set.
StoreSnapshot readStoreSnapshot(const QString& path);

// The path, sizes and modification times of the store and its WAL: changes whenever another process
// commits, so a timer can skip re-reading an unchanged store.
QString storeSignature(const QString& path);

QList<QPair<QString, double>> parseMetrics(const std::string& json);

}  // namespace lf::ui
