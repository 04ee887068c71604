#include "checkpoints/tensorboard_import.h"

#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/run_exchange.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

TensorBoardImportReport importFolder(const QString& storePath, const QString& folder) {
    TensorBoardImportReport report;
    report.folder = folder;
    try {
        RunStore store(storePath.toStdString(), true);
        const tensorboard::ImportResult r = tensorboard::import_log_folder(store, folder.toStdString());
        for (const tensorboard::ImportedRun& i : r.imported) {
            report.runs.append(i.run);
            report.points += qint64(i.points);
        }
        for (const std::string& s : r.skipped) report.skipped.append(QString::fromStdString(s));
        for (const tensorboard::Damage& d : r.damage) report.damage.append(QString::fromStdString(d.text()));
    } catch (const std::exception& e) {  // lf::Error: names the folder or the store
        report.error = QString::fromUtf8(e.what());
    }
    return report;
}

}  // namespace

QString TensorBoardImportReport::text() const {
    if (!error.isEmpty()) return error;
    QString t = runs.isEmpty() ? TensorBoardImport::tr("No runs were imported from %1.").arg(folder)
                               : TensorBoardImport::tr("Imported %n run(s), %1 points, from %2.", nullptr, int(runs.size()))
                                     .arg(points)
                                     .arg(folder);
    if (!runs.isEmpty()) t += "\n" + TensorBoardImport::tr("Overlay them from the charts' Runs menu.");
    for (const QString& s : skipped) t += "\n" + TensorBoardImport::tr("Skipped %1").arg(s);
    for (const QString& d : damage) t += "\n" + TensorBoardImport::tr("Damaged: %1").arg(d);
    return t;
}

bool TensorBoardImport::start(const QString& storePath, const QString& folder) {
    if (busy_) return false;
    busy_ = true;
    runInBackground(
        this, [storePath, folder] { return importFolder(storePath, folder); },
        [this](TensorBoardImportReport report) {
            busy_ = false;
            Q_EMIT finished(report);
        });
    return true;
}

}  // namespace lf::ui
