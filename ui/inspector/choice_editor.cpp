#include <QComboBox>
#include <QLayout>

#include "inspector/param_editor.h"

namespace lf::ui {

ChoiceEditor::ChoiceEditor(const ParamSpec& spec, QWidget* parent) : ParamEditor(spec, parent), box_(new QComboBox(this)) {
    layout()->addWidget(box_);
    for (const std::string& c : spec.choices) box_->addItem(QString::fromStdString(c));
    connect(box_, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        if (!updating_) Q_EMIT committed(ParamValue(text.toStdString()));
    });
}

void ChoiceEditor::setValue(const ParamValue& value) {
    updating_ = true;
    if (auto* s = std::get_if<std::string>(&value)) box_->setCurrentText(QString::fromStdString(*s));
    updating_ = false;
}

}  // namespace lf::ui
