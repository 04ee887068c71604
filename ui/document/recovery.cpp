#include "document/recovery.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include "document/project_document.h"
#include "layerforge/core/error.h"

namespace lf::ui {

// The recovery file is plain project JSON; "<path>.origin" beside it holds the original file
// name (empty for an untitled project), so a recovered document saves where it belongs.

Recovery::Recovery(ProjectDocument* doc, const QString& path, int intervalMs, QObject* parent)
    : QObject(parent), doc_(doc), path_(path) {
    if (path_.isEmpty()) {
        QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dir);
        path_ = dir + "/recovery.lfproj";
    }
    timer_.setInterval(intervalMs);
    connect(&timer_, &QTimer::timeout, this, &Recovery::writeNow);
    timer_.start();
}

bool Recovery::writeNow() {
    if (!doc_->isModified()) return false;
    try {
        save_project(doc_->project(), path_.toStdString());
    } catch (const Error&) {
        return false;
    }
    QFile origin(path_ + ".origin");
    if (!origin.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    origin.write(doc_->fileName().toUtf8());
    return true;
}

void Recovery::discard() {
    QFile::remove(path_);
    QFile::remove(path_ + ".origin");
}

bool Recovery::exists() const { return QFile::exists(path_); }

QString Recovery::originalFileName() const {
    QFile origin(path_ + ".origin");
    return origin.open(QIODevice::ReadOnly) ? QString::fromUtf8(origin.readAll()) : QString();
}

bool Recovery::restore(QString* error) {
    try {
        Project p = load_project(path_.toStdString());
        doc_->reset(std::move(p), originalFileName(), true);
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace lf::ui
