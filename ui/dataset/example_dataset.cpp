#include "dataset/example_dataset.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include "layerforge/core/error.h"
#include "layerforge/data/idx_import.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

const char* kMarker = ".layerforge-import.json";

QJsonObject readMarker(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

QString defaultExampleDatasetDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/datasets/fashion-mnist";
}

ExampleDataset::ExampleDataset(const QString& dir, QObject* parent) : QObject(parent), dir_(dir) {}

ExampleDataset::~ExampleDataset() {
    if (!importing_) return;
    *cancel_ = true;             // the next progress report aborts the import (within 256 images)
    running_.waitForFinished();  // so no report is posted to a deleted object
}

QString ExampleDataset::markerPath() const { return dir_ + "/" + kMarker; }

bool ExampleDataset::isComplete() const {
    const QJsonObject m = readMarker(markerPath());
    return !m.isEmpty() && m["limit_train"].toInteger() == limitTrain_ && m["limit_test"].toInteger() == limitTest_ &&
           m["classes"].toArray().size() > 0;
}

QStringList ExampleDataset::classFolders() const {
    QStringList out;
    for (const QJsonValue& v : readMarker(markerPath())["classes"].toArray()) out << v.toString();
    return out;
}

void ExampleDataset::prepare() {
    if (importing_) return;
    imported_ = false;
    if (isComplete()) {
        QMetaObject::invokeMethod(this, [this] { Q_EMIT ready(dir_); }, Qt::QueuedConnection);
        return;
    }
    // Written beside the final folder and renamed when complete, so a crash leaves no half folder.
    const QString partial = dir_ + ".importing";
    const QString source = source_;
    const qint64 train = limitTrain_, test = limitTest_;
    auto report = [this, cancel = cancel_](std::int64_t done, std::int64_t total) {
        if (*cancel) throw runtime_error("the import was cancelled");
        QMetaObject::invokeMethod(this, [this, done, total] { Q_EMIT progress(done, total); }, Qt::QueuedConnection);
    };
    importing_ = true;
    running_ = runInBackground(this, [partial, source, train, test, report]() -> QString {
        QDir(partial).removeRecursively();
        try {
            const IdxImportResult r = import_fashion_mnist(partial.toStdString(), source.toStdString(), train, test, 0, report);
            QJsonArray classes;
            for (const std::string& c : r.class_folders) classes.append(QString::fromStdString(c));
            const QJsonObject marker{{"train", qint64(r.train)}, {"test", qint64(r.test)}, {"limit_train", train},
                                     {"limit_test", test}, {"classes", classes}};
            QFile f(partial + "/" + kMarker);
            if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(marker).toJson()) < 0)
                return QObject::tr("%1: cannot write the import marker").arg(f.fileName());
        } catch (const Error& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    }, [this](const QString& error) { finishImport(error); });
}

void ExampleDataset::finishImport(const QString& error) {
    importing_ = false;
    running_ = {};  // its result was taken
    if (!error.isEmpty()) {
        Q_EMIT failed(error);
        return;
    }
    const QString partial = dir_ + ".importing";
    QDir old(dir_);
    // Only an earlier import (it has the marker) is replaced: never a folder someone else made.
    if (old.exists() && (!QFile::exists(markerPath()) || !old.removeRecursively())) {
        Q_EMIT failed(tr("%1: the folder exists and is not an earlier import; move it away").arg(dir_));
        return;
    }
    QDir().mkpath(QFileInfo(dir_).absolutePath());
    if (!QDir().rename(partial, dir_)) {
        Q_EMIT failed(tr("%1: cannot move the imported images into place").arg(dir_));
        return;
    }
    imported_ = true;
    Q_EMIT ready(dir_);
}

}  // namespace lf::ui
