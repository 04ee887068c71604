#pragma once
// Sets Keras' `trainable` flag of several layers at once ("Freeze up to here", "Freeze block",
// the inspector's check box): one undo step.
#include <map>
#include <string>

#include "document/document_command.h"

namespace lf::ui {

class SetTrainableCommand : public DocumentCommand {
public:
    // `trainable`: node id -> the flag it gets; nodes already so are left out of the step.
    SetTrainableCommand(ProjectDocument* doc, const std::map<std::string, bool>& trainable, const QString& text);
    bool changesAnything() const { return !new_.empty(); }
    void redo() override;
    void undo() override;

private:
    void apply(const std::map<std::string, bool>& flags);
    std::map<std::string, bool> old_, new_;
};

}  // namespace lf::ui
