#pragma once
// Edit > Preferences…: the UI language (System / English / 简体中文). OK saves the choice
// with QSettings; the new language applies the next time the studio starts.
#include <QDialog>

class QComboBox;

namespace lf::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    QComboBox* languageBox() const { return language_; }
    void accept() override;

private:
    QComboBox* language_;
};

}  // namespace lf::ui
