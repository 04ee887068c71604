#include "preferences/preferences_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "i18n/language.h"

namespace lf::ui {

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent), language_(new QComboBox) {
    setWindowTitle(tr("Preferences"));
    setMinimumWidth(420);  // the restart note on two lines at most
    for (const LanguageChoice& c : languageChoices()) language_->addItem(c.name, c.code);
    language_->setCurrentIndex(language_->findData(savedLanguage()));
    auto* note = new QLabel(tr("A new language is used the next time Layerforge starts."));
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&Language:"), language_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

void PreferencesDialog::accept() {
    saveLanguage(language_->currentData().toString());
    QDialog::accept();
}

}  // namespace lf::ui
