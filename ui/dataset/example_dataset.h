#pragma once
// The built-in example's data: Fashion-MNIST from Debian's dataset-fashion-mnist, imported once
// into a per-user image folder (DIR/train/CLASS/*.png, DIR/test/CLASS/*.png) so it trains through
// the same pipeline as the user's own folders. The import runs on a worker thread and reports
// progress; a marker file written last says the folder is complete, so later starts reuse it
// and an interrupted import is redone.
#include <QFuture>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>

namespace lf::ui {

// AppDataLocation/datasets/fashion-mnist
QString defaultExampleDatasetDir();

class ExampleDataset : public QObject {
    Q_OBJECT
public:
    explicit ExampleDataset(const QString& dir = defaultExampleDatasetDir(), QObject* parent = nullptr);
    ~ExampleDataset() override;

    // Import only the first N training / test images (0: all); a folder imported with other
    // limits is imported again.
    void setLimits(qint64 train, qint64 test) { limitTrain_ = train, limitTest_ = test; }
    void setSourceDir(const QString& idxDir) { source_ = idxDir; }  // empty: Debian's install path

    QString dir() const { return dir_; }
    bool isComplete() const;           // the marker is there and matches the limits
    QStringList classFolders() const;  // label order, from the marker
    bool isImporting() const { return importing_; }
    bool importedThisTime() const { return imported_; }

    // Emits ready() at once (queued) when the folder is complete, else imports first.
    void prepare();

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    void ready(const QString& dir);
    void failed(const QString& message);

private:
    QString markerPath() const;
    void finishImport(const QString& error);  // empty on success

    QString dir_, source_;
    qint64 limitTrain_ = 0, limitTest_ = 0;
    bool importing_ = false;
    QFuture<QString> running_;  // the import; its result (an error message) goes to finishImport
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
    bool imported_ = false;
};

}  // namespace lf::ui
