#pragma once
// Sets (or clears, to fall back on the default) one parameter of one node. Consecutive edits
// of the same parameter merge, so a spin box or slider drag is one undo step.
#include <optional>

#include "document/document_command.h"

namespace lf::ui {

class SetParamCommand : public DocumentCommand {
public:
    SetParamCommand(ProjectDocument* doc, const std::string& node, const std::string& param,
                    std::optional<ParamValue> value);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const std::optional<ParamValue>& value);
    std::string node_, param_;
    std::optional<ParamValue> old_, new_;
};

}  // namespace lf::ui
