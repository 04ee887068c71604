#pragma once
// Base of every undo command: the only code allowed to write to a ProjectDocument.
#include <QUndoCommand>

#include "document/project_document.h"

namespace lf::ui {

class DocumentCommand : public QUndoCommand {
public:
    DocumentCommand(ProjectDocument* doc, const QString& text) : QUndoCommand(text), doc_(doc) {}

protected:
    Project& project() { return doc_->mutableProject(); }
    Graph& graph() { return doc_->mutableProject().graph; }
    void notify(DocumentChange::Kind kind, const QStringList& nodes = {}) { doc_->notify({kind, nodes}); }
    ProjectDocument* document() const { return doc_; }

private:
    ProjectDocument* doc_;
};

QStringList toIds(const std::vector<std::string>& ids);

}  // namespace lf::ui
