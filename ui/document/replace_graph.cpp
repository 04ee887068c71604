#include "document/replace_graph.h"

namespace lf::ui {

ReplaceGraphCommand::ReplaceGraphCommand(ProjectDocument* doc, Graph after, const QString& text)
    : DocumentCommand(doc, text), before_(doc->graph()), after_(std::move(after)) {}

void ReplaceGraphCommand::redo() {
    graph() = after_;
    notify(DocumentChange::GraphChanged);
}

void ReplaceGraphCommand::undo() {
    graph() = before_;
    notify(DocumentChange::GraphChanged);
}

}  // namespace lf::ui
