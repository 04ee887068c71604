#include <QDoubleValidator>

#include "inspector/param_editor.h"

namespace lf::ui {

QString FloatEditor::format(const ParamValue& value) const {
    if (auto* d = std::get_if<double>(&value)) return QString::number(*d, 'g', 10);
    if (auto* i = std::get_if<std::int64_t>(&value)) return QString::number(*i);
    return {};
}

std::optional<ParamValue> FloatEditor::parse(const QString& text, QString* error) const {
    bool ok = false;
    double v = text.toDouble(&ok);
    if (!ok) {
        *error = ParamEditor::tr("\"%1\" is not a number").arg(text);
        return std::nullopt;
    }
    return ParamValue(v);
}

}  // namespace lf::ui
