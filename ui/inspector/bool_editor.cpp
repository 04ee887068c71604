#include <QCheckBox>
#include <QLayout>

#include "inspector/param_editor.h"

namespace lf::ui {

BoolEditor::BoolEditor(const ParamSpec& spec, QWidget* parent) : ParamEditor(spec, parent), box_(new QCheckBox(this)) {
    layout()->addWidget(box_);
    connect(box_, &QCheckBox::toggled, this, [this](bool on) {
        if (!updating_) Q_EMIT committed(ParamValue(on));
    });
}

void BoolEditor::setValue(const ParamValue& value) {
    updating_ = true;
    if (auto* b = std::get_if<bool>(&value)) box_->setChecked(*b);
    updating_ = false;
}

}  // namespace lf::ui
