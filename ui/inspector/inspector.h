#pragma once
// The inspector: the selected layer's name, type, help, problems and one editor per
// parameter, generated from the registry's schema. Every accepted edit is an undo command;
// a value the schema rejects is not applied and the message is shown under the editors.
#include <map>

#include <QWidget>

#include "document/project_document.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace lf::ui {

class ParamEditor;

class Inspector : public QWidget {
    Q_OBJECT
public:
    explicit Inspector(ProjectDocument* doc, QWidget* parent = nullptr);
    void setNode(const QString& id);  // empty: nothing selected
    QString nodeId() const { return node_; }
    ParamEditor* editor(const std::string& param) const;
    QLineEdit* nameEdit() const { return name_; }
    QCheckBox* trainableCheck() const { return trainable_; }
    QString message() const;

    // Validates against the schema, then pushes a SetParamCommand. Returns false (and shows
    // the reason) when the value is rejected.
    bool applyParam(const std::string& param, const ParamValue& value);
    bool rename(const QString& name);
    void setTrainable(bool trainable);  // Keras' flag: false freezes the layer's weights

private:
    void rebuild();
    void refresh();
    void showMessage(const QString& text, bool error);

    ProjectDocument* doc_;
    QString node_;
    std::string builtType_;
    QLabel* title_;
    QLabel* help_;
    QLineEdit* name_;
    QCheckBox* trainable_;
    QFormLayout* form_;
    QLabel* problems_;
    QLabel* message_;
    std::map<std::string, ParamEditor*> editors_;
};

}  // namespace lf::ui
