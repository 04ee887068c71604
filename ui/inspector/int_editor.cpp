#include <QLayout>
#include <QSpinBox>
#include <climits>

#include "inspector/param_editor.h"

namespace lf::ui {

IntEditor::IntEditor(const ParamSpec& spec, QWidget* parent) : ParamEditor(spec, parent), box_(new QSpinBox(this)) {
    layout()->addWidget(box_);
    box_->setRange(int(std::max<double>(spec.min, INT_MIN)), int(std::min<double>(spec.max, INT_MAX)));
    box_->setAccelerated(true);
    box_->setKeyboardTracking(false);  // typed digits commit on Enter; arrows and wheel commit each step
    connect(box_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!updating_) Q_EMIT committed(ParamValue(std::int64_t(v)));
    });
}

void IntEditor::setValue(const ParamValue& value) {
    updating_ = true;
    if (auto* i = std::get_if<std::int64_t>(&value)) box_->setValue(int(*i));
    updating_ = false;
}

}  // namespace lf::ui
