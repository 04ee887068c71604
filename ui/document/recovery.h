#pragma once
// Autosave to a recovery file while the document has unsaved changes; the file is removed on
// a clean close, so finding one at start-up means the last session crashed.
#include <QObject>
#include <QString>
#include <QTimer>

namespace lf::ui {

class ProjectDocument;

class Recovery : public QObject {
    Q_OBJECT
public:
    // `path` empty: <AppDataLocation>/recovery.lfproj
    Recovery(ProjectDocument* doc, const QString& path = {}, int intervalMs = 30000, QObject* parent = nullptr);
    QString path() const { return path_; }
    bool writeNow();              // writes the document (with its file name) if modified
    void discard();               // clean close: remove the file
    bool exists() const;
    // The project file the unsaved changes belong to; empty for an untitled project.
    QString originalFileName() const;
    // Loads the recovery file into the document (modified, with the original file name).
    bool restore(QString* error);

private:
    ProjectDocument* doc_;
    QString path_;
    QTimer timer_;
};

}  // namespace lf::ui
