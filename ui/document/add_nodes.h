#pragma once
// Adds nodes and edges: a palette drop, a paste, a duplicate, a template insertion.
#include "document/document_command.h"

namespace lf::ui {

class AddNodesCommand : public DocumentCommand {
public:
    AddNodesCommand(ProjectDocument* doc, Graph fragment, const QString& text);
    void redo() override;
    void undo() override;
    const Graph& fragment() const { return fragment_; }

private:
    Graph fragment_;  // nodes and edges to append; ids already unique in the document
};

}  // namespace lf::ui
