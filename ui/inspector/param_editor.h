#pragma once
// One editor widget per parameter kind, generated from the layer's ParamSpec (kind, range,
// choices, default, help). An editor reports a finished edit with `committed`, or a value it
// could not parse with `rejected`; the Inspector validates against the schema and pushes the
// command. Each kind lives in its own file: bool_editor.cpp, int_editor.cpp, ...
#include <QWidget>
#include <optional>

#include "layerforge/layers/registry.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace lf::ui {

class ParamEditor : public QWidget {
    Q_OBJECT
public:
    explicit ParamEditor(const ParamSpec& spec, QWidget* parent = nullptr);
    const ParamSpec& spec() const { return spec_; }
    virtual void setValue(const ParamValue& value) = 0;  // shows a value without committing

Q_SIGNALS:
    void committed(const lf::ParamValue& value);
    void rejected(const QString& message);

protected:
    ParamSpec spec_;
    bool updating_ = false;  // set while setValue runs, so programmatic changes do not commit
};

ParamEditor* createParamEditor(const ParamSpec& spec, QWidget* parent = nullptr);

class BoolEditor : public ParamEditor {
public:
    explicit BoolEditor(const ParamSpec& spec, QWidget* parent = nullptr);
    void setValue(const ParamValue& value) override;
private:
    QCheckBox* box_;
};

class IntEditor : public ParamEditor {
public:
    explicit IntEditor(const ParamSpec& spec, QWidget* parent = nullptr);
    void setValue(const ParamValue& value) override;
    QSpinBox* spinBox() const { return box_; }
private:
    QSpinBox* box_;
};

// Float, String and IntList are typed into a line edit and parsed on Enter / focus out.
class TextParamEditor : public ParamEditor {
public:
    TextParamEditor(const ParamSpec& spec, QWidget* parent = nullptr);
    QLineEdit* lineEdit() const { return edit_; }
    void setValue(const ParamValue& value) override;
protected:
    virtual QString format(const ParamValue& value) const = 0;
    virtual std::optional<ParamValue> parse(const QString& text, QString* error) const = 0;
private:
    void commitText();
    QLineEdit* edit_;
};

class FloatEditor : public TextParamEditor {
public:
    using TextParamEditor::TextParamEditor;
protected:
    QString format(const ParamValue& value) const override;
    std::optional<ParamValue> parse(const QString& text, QString* error) const override;
};

class StringEditor : public TextParamEditor {
public:
    using TextParamEditor::TextParamEditor;
protected:
    QString format(const ParamValue& value) const override;
    std::optional<ParamValue> parse(const QString& text, QString* error) const override;
};

class IntListEditor : public TextParamEditor {
public:
    using TextParamEditor::TextParamEditor;
protected:
    QString format(const ParamValue& value) const override;
    std::optional<ParamValue> parse(const QString& text, QString* error) const override;
};

class ChoiceEditor : public ParamEditor {
public:
    explicit ChoiceEditor(const ParamSpec& spec, QWidget* parent = nullptr);
    void setValue(const ParamValue& value) override;
private:
    QComboBox* box_;
};

}  // namespace lf::ui
