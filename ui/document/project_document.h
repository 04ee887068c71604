#pragma once
// The open project: engine graph, dataset binding, training settings, file name, modified
// state and the undo stack. Every edit is a DocumentCommand pushed on the stack; the document
// announces each change through `changed` and keeps the graph analysis up to date.
#include <QObject>
#include <QString>
#include <QUndoStack>

#include "document/document_change.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/project/project.h"

namespace lf::ui {

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);

    const Project& project() const { return project_; }
    const Graph& graph() const { return project_.graph; }
    const Analysis& analysis() const { return analysis_; }
    QUndoStack* undoStack() { return &stack_; }
    void push(QUndoCommand* command) { stack_.push(command); }

    QString fileName() const { return fileName_; }
    QString displayName() const;
    bool isModified() const { return !stack_.isClean(); }

    // Replaces the whole project (New, Open, recovery); clears the undo history.
    void reset(Project project, const QString& fileName, bool modified = false);
    bool load(const QString& path, QString* error);
    bool saveAs(const QString& path, QString* error);
    QString serialized() const;  // the project as it would be saved

    // Names and ids not used by any node: "dense", "dense_1", ...
    std::string uniqueName(const std::string& base) const;
    std::string uniqueId(const std::string& base) const;

Q_SIGNALS:
    void changed(const lf::ui::DocumentChange& change);
    void modifiedChanged(bool modified);
    void fileNameChanged(const QString& fileName);

private:
    friend class DocumentCommand;  // the only writer
    Project& mutableProject() { return project_; }
    void notify(DocumentChange change);

    Project project_;
    Analysis analysis_;
    QString fileName_;
    QUndoStack stack_;
};

}  // namespace lf::ui
