#pragma once
// Connects an output port to an input port. An edge already feeding that input port is
// replaced (and comes back on undo).
#include <optional>

#include "document/document_command.h"

namespace lf::ui {

class ConnectPortsCommand : public DocumentCommand {
public:
    ConnectPortsCommand(ProjectDocument* doc, Edge edge);
    void redo() override;
    void undo() override;

private:
    Edge edge_;
    std::optional<std::pair<std::size_t, Edge>> replaced_;
};

}  // namespace lf::ui
