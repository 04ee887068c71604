#include "inspector/param_editor.h"

#include <QStringList>

namespace lf::ui {

QString IntListEditor::format(const ParamValue& value) const {
    QStringList parts;
    if (auto* l = std::get_if<IntList>(&value))
        for (std::int64_t v : *l) parts << QString::number(v);
    return parts.join(", ");
}

// "28, 28, 1" or "[28, 28, 1]" or "5" (a single int is broadcast by the engine).
std::optional<ParamValue> IntListEditor::parse(const QString& text, QString* error) const {
    QString t = text;
    t.remove('[').remove(']').remove('(').remove(')');
    IntList list;
    for (const QString& part : t.split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        qlonglong v = part.trimmed().toLongLong(&ok);
        if (!ok) {
            *error = ParamEditor::tr("\"%1\" is not a whole number; write a list like 28, 28, 1").arg(part.trimmed());
            return std::nullopt;
        }
        list.push_back(v);
    }
    if (list.empty()) {
        *error = ParamEditor::tr("enter at least one whole number, e.g. 28, 28, 1");
        return std::nullopt;
    }
    if (list.size() == 1 && spec_.list_size > 1) return ParamValue(list[0]);  // broadcast: 5 -> [5, 5]
    return ParamValue(list);
}

}  // namespace lf::ui
