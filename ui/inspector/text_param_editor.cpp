#include <QLayout>
#include <QLineEdit>

#include "inspector/param_editor.h"

namespace lf::ui {

TextParamEditor::TextParamEditor(const ParamSpec& spec, QWidget* parent)
    : ParamEditor(spec, parent), edit_(new QLineEdit(this)) {
    layout()->addWidget(edit_);
    edit_->setPlaceholderText(QString::fromStdString(to_string(spec.def)));
    connect(edit_, &QLineEdit::editingFinished, this, &TextParamEditor::commitText);
}

void TextParamEditor::setValue(const ParamValue& value) {
    updating_ = true;
    edit_->setText(format(value));
    updating_ = false;
}

void TextParamEditor::commitText() {
    if (updating_ || !edit_->isModified()) return;
    edit_->setModified(false);
    QString error;
    std::optional<ParamValue> value = parse(edit_->text().trimmed(), &error);
    if (value) Q_EMIT committed(*value);
    else Q_EMIT rejected(error);
}

}  // namespace lf::ui
