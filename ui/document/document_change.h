#pragma once
// What changed in a ProjectDocument, announced through its one `changed` signal.
#include <string>
#include <vector>

#include <QStringList>

namespace lf::ui {

struct DocumentChange {
    enum Kind {
        Reset,         // a new project was loaded: rebuild every view
        GraphChanged,  // nodes or edges were added or removed: shapes may differ
        NodesEdited,   // parameters or names of `nodes` changed; the same nodes and edges remain
        NodesMoved,    // only canvas positions of `nodes` changed
        SettingsChanged,  // dataset binding or training configuration
        GroupsChanged,    // node groups (blocks) were made, removed, collapsed or expanded
    };
    Kind kind = Reset;
    QStringList nodes;  // affected node ids, when known
    // NodesEdited: the nodes whose shape, parameter count or problems the edit changed, besides
    // `nodes` themselves (filled in by the document from its incremental analysis).
    std::vector<std::string> reanalysed;
};

}  // namespace lf::ui
