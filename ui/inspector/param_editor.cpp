#include "inspector/param_editor.h"

#include <QHBoxLayout>

namespace lf::ui {

ParamEditor::ParamEditor(const ParamSpec& spec, QWidget* parent) : QWidget(parent), spec_(spec) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    QString tip = QString::fromStdString(spec.help);
    if (std::string range = range_text(spec); !range.empty())
        tip += "\n" + tr("Allowed: %1").arg(QString::fromStdString(range));
    tip += "\n" + tr("Default: %1").arg(QString::fromStdString(to_string(spec.def)));
    setToolTip(tip);
}

ParamEditor* createParamEditor(const ParamSpec& spec, QWidget* parent) {
    switch (spec.kind) {
    case ParamKind::Bool: return new BoolEditor(spec, parent);
    case ParamKind::Int: return new IntEditor(spec, parent);
    case ParamKind::Float: return new FloatEditor(spec, parent);
    case ParamKind::String: return new StringEditor(spec, parent);
    case ParamKind::Choice: return new ChoiceEditor(spec, parent);
    case ParamKind::IntList: return new IntListEditor(spec, parent);
    }
    return nullptr;
}

}  // namespace lf::ui
