#pragma once
// Removes nodes with every edge that touches them, and any extra edges given (Delete, Cut).
// Undo puts each node and edge back at its old index, so the saved file is byte-identical.
#include <utility>

#include "document/document_command.h"

namespace lf::ui {

class RemoveNodesCommand : public DocumentCommand {
public:
    RemoveNodesCommand(ProjectDocument* doc, const std::vector<std::string>& ids, const std::vector<Edge>& edges,
                       const QString& text);
    void redo() override;
    void undo() override;

private:
    std::vector<std::pair<std::size_t, Node>> nodes_;  // old index, node (ascending index)
    std::vector<std::pair<std::size_t, Edge>> edges_;
    std::vector<NodeGroup> oldGroups_, newGroups_;  // removed nodes leave their groups
};

}  // namespace lf::ui
