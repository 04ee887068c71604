#pragma once
// Replaces the whole model graph by an edited copy (an engine graph edit such as Replace head):
// one undo step that restores the graph as it was.
#include "document/document_command.h"

namespace lf::ui {

class ReplaceGraphCommand : public DocumentCommand {
public:
    ReplaceGraphCommand(ProjectDocument* doc, Graph after, const QString& text);
    void redo() override;
    void undo() override;

private:
    Graph before_, after_;
};

}  // namespace lf::ui
