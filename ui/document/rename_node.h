#pragma once
// Renames a layer (its user-facing name, also its weight-name prefix). Names are unique;
// the caller checks with ProjectDocument::uniqueName before pushing.
#include "document/document_command.h"

namespace lf::ui {

class RenameNodeCommand : public DocumentCommand {
public:
    RenameNodeCommand(ProjectDocument* doc, const std::string& node, const std::string& name);
    void redo() override;
    void undo() override;

private:
    void apply(const std::string& name);
    std::string node_, old_, new_;
};

}  // namespace lf::ui
