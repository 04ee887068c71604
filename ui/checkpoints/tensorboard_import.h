#pragma once
// File > Import TensorBoard Logs: every run folder under a TensorBoard log folder read into the
// project's run store off the UI thread (tensorboard/run_exchange.h), then a report of what was
// imported, skipped and damaged. The imported runs are ordinary runs of the store: the Runs menu
// of the training charts overlays their curves.
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

namespace lf::ui {

struct TensorBoardImportReport {
    QString folder;
    QList<qint64> runs;    // the new runs' ids
    qint64 points = 0;
    QStringList skipped;   // run folders left out, with the reason
    QStringList damage;    // "FILE: what at byte N; ..." per damaged file
    QString error;         // nothing could be read (a missing folder, a store that cannot be written)
    QString text() const;  // for the user
};

class TensorBoardImport : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Starts importing `folder` into the store at `storePath` (created when missing); false, and
    // nothing started, while another import runs.
    bool start(const QString& storePath, const QString& folder);
    bool busy() const { return busy_; }

Q_SIGNALS:
    void finished(const lf::ui::TensorBoardImportReport& report);

private:
    bool busy_ = false;
};

}  // namespace lf::ui

Q_DECLARE_METATYPE(lf::ui::TensorBoardImportReport)
