#pragma once
// Installs the translators of a UI language on the application: ours, embedded at
// :/i18n/layerforge_<code>.qm, and Qt's own qtbase_<code>.qm (the buttons of standard
// dialogs) when the system has it. Widgets translate their texts when they are built, so
// call this before creating the main window; a language change applies after a restart.
#include <QString>
#include <QStringList>

namespace lf::ui {

// code: "en" or "zh_CN" (see resolveLanguage()). Returns the .qm files it installed. For
// zh_CN it also adds a Simplified Chinese font family to the application font.
QStringList installTranslations(const QString& code);

// Removes and deletes every translator installTranslations() added.
void removeTranslations();

}  // namespace lf::ui
