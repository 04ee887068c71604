#pragma once
// Group, ungroup, collapse and expand: each replaces the document's list of node groups, and
// undo puts the old list back exactly. Groups are layout only; they never change the model.
#include "document/document_command.h"

namespace lf::ui {

class ChangeGroupsCommand : public DocumentCommand {
public:
    ChangeGroupsCommand(ProjectDocument* doc, std::vector<NodeGroup> groups, const QString& text);
    void redo() override;
    void undo() override;

private:
    void apply(const std::vector<NodeGroup>& groups);
    std::vector<NodeGroup> old_, new_;
};

// Null when there is nothing to do. Nodes taken into a new group leave the groups they were in.
ChangeGroupsCommand* groupNodesCommand(ProjectDocument* doc, const std::vector<std::string>& nodes);
ChangeGroupsCommand* ungroupCommand(ProjectDocument* doc, const std::vector<std::string>& groupIds);
ChangeGroupsCommand* setCollapsedCommand(ProjectDocument* doc, const std::string& groupId, bool collapsed);

// Groups without the given nodes; a group left empty goes (removing or cutting nodes).
std::vector<NodeGroup> withoutNodes(std::vector<NodeGroup> groups, const std::vector<std::string>& nodes);

}  // namespace lf::ui
