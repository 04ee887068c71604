#include "inspector/param_editor.h"

namespace lf::ui {

QString StringEditor::format(const ParamValue& value) const {
    auto* s = std::get_if<std::string>(&value);
    return s ? QString::fromStdString(*s) : QString();
}

std::optional<ParamValue> StringEditor::parse(const QString& text, QString*) const {
    return ParamValue(text.toStdString());
}

}  // namespace lf::ui
