#include "checkpoints/store_snapshot.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "layerforge/core/error.h"

namespace lf::ui {

const RunInfo* StoreSnapshot::run(std::int64_t id) const {
    for (const RunInfo& r : runs)
        if (r.id == id) return &r;
    return nullptr;
}

QList<QPair<QString, double>> parseMetrics(const std::string& json) {
    QList<QPair<QString, double>> out;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    // QJsonObject sorts its keys; the losses first reads best in a table.
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.value().isDouble()) out.append({it.key(), it.value().toDouble()});
    return out;
}

StoreSnapshot readStoreSnapshot(const QString& path) {
    StoreSnapshot s;
    s.path = path;
    if (!QFileInfo::exists(path)) {
        s.missing = true;
        return s;
    }
    try {
        RunStore store(path.toStdString(), /*create=*/false, /*busy_timeout_ms=*/2000);
        s.runs = store.runs();
        for (const RunInfo& r : s.runs) {
            std::int64_t best = 0;
            try {
                best = store.resolve("best", r.id).id;
            } catch (const Error&) {  // the run has no checkpoint reporting a loss
            }
            for (const CheckpointInfo& c : store.checkpoints(r.id)) {
                CheckpointRow row{c, QString::fromStdString(r.name), parseMetrics(c.metrics), c.id == best, {}};
                row.created = QDateTime::fromString(QString::fromStdString(c.created), Qt::ISODate);
                s.checkpoints.push_back(std::move(row));
            }
        }
    } catch (const std::exception& e) {
        s.runs.clear();
        s.checkpoints.clear();
        s.error = QString::fromStdString(e.what());
    }
    return s;
}

QString storeSignature(const QString& path) {
    QString sig = path + ";";
    for (const QString& f : {path, path + "-wal"}) {
        const QFileInfo info(f);
        sig += QString("%1:%2:%3;").arg(info.exists()).arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    }
    return sig;
}

}  // namespace lf::ui
