#pragma once
// Disconnects edges (select an edge and press Delete).
#include "document/remove_nodes.h"

namespace lf::ui {

class RemoveEdgesCommand : public RemoveNodesCommand {
public:
    RemoveEdgesCommand(ProjectDocument* doc, const std::vector<Edge>& edges)
        : RemoveNodesCommand(doc, {}, edges, QObject::tr("Disconnect")) {}
};

}  // namespace lf::ui
