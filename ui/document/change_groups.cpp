#include "document/change_groups.h"

#include <algorithm>
#include <set>

namespace lf::ui {

ChangeGroupsCommand::ChangeGroupsCommand(ProjectDocument* doc, std::vector<NodeGroup> groups, const QString& text)
    : DocumentCommand(doc, text), old_(doc->graph().groups), new_(std::move(groups)) {}

void ChangeGroupsCommand::redo() { apply(new_); }
void ChangeGroupsCommand::undo() { apply(old_); }

void ChangeGroupsCommand::apply(const std::vector<NodeGroup>& groups) {
    graph().groups = groups;
    notify(DocumentChange::GroupsChanged);
}

std::vector<NodeGroup> withoutNodes(std::vector<NodeGroup> groups, const std::vector<std::string>& nodes) {
    const std::set<std::string> gone(nodes.begin(), nodes.end());
    for (NodeGroup& g : groups) std::erase_if(g.nodes, [&](const std::string& id) { return gone.count(id) > 0; });
    std::erase_if(groups, [](const NodeGroup& g) { return g.nodes.empty(); });
    return groups;
}

namespace {

std::string uniqueGroupId(const std::vector<NodeGroup>& groups) {
    for (int i = 1;; ++i) {
        std::string id = "group_" + std::to_string(i);
        if (std::none_of(groups.begin(), groups.end(), [&](const NodeGroup& g) { return g.id == id; })) return id;
    }
}

}  // namespace

ChangeGroupsCommand* groupNodesCommand(ProjectDocument* doc, const std::vector<std::string>& nodes) {
    std::vector<std::string> members;
    for (const Node& n : doc->graph().nodes)  // document order, existing nodes only
        if (std::find(nodes.begin(), nodes.end(), n.id) != nodes.end()) members.push_back(n.id);
    if (members.empty()) return nullptr;
    std::vector<NodeGroup> groups = withoutNodes(doc->graph().groups, members);
    std::string id = uniqueGroupId(doc->graph().groups);
    std::string name = QObject::tr("Block %1").arg(id.substr(id.find('_') + 1).c_str()).toStdString();
    groups.push_back({id, name, members, false});
    return new ChangeGroupsCommand(doc, std::move(groups),
                                   QObject::tr("Group %n layer(s)", nullptr, int(members.size())));
}

ChangeGroupsCommand* ungroupCommand(ProjectDocument* doc, const std::vector<std::string>& groupIds) {
    std::vector<NodeGroup> groups = doc->graph().groups;
    auto listed = [&](const NodeGroup& g) { return std::find(groupIds.begin(), groupIds.end(), g.id) != groupIds.end(); };
    if (std::erase_if(groups, listed) == 0) return nullptr;
    return new ChangeGroupsCommand(doc, std::move(groups), QObject::tr("Ungroup"));
}

ChangeGroupsCommand* setCollapsedCommand(ProjectDocument* doc, const std::string& groupId, bool collapsed) {
    std::vector<NodeGroup> groups = doc->graph().groups;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const NodeGroup& g) { return g.id == groupId; });
    if (it == groups.end() || it->collapsed == collapsed) return nullptr;
    it->collapsed = collapsed;
    return new ChangeGroupsCommand(doc, std::move(groups),
                                   collapsed ? QObject::tr("Collapse %1").arg(QString::fromStdString(it->name))
                                             : QObject::tr("Expand %1").arg(QString::fromStdString(it->name)));
}

}  // namespace lf::ui
