#pragma once
// The studio's UI language: the choice saved by Preferences (QSettings "ui/language") and what
// that choice means on this desktop. Codes name the translations embedded under :/i18n
// ("en", "zh_CN"); "system" follows the desktop's locale.
#include <QList>
#include <QLocale>
#include <QString>

namespace lf::ui {

inline constexpr char kSystemLanguage[] = "system";

struct LanguageChoice {
    QString code;  // "system", "en", "zh_CN"
    QString name;  // as Preferences lists it: each language in its own script
};

// "system" first, named after the language it resolves to here ("System (English)"), then
// each embedded translation.
QList<LanguageChoice> languageChoices();

QString savedLanguage();  // "system" when nothing (or something unknown) is saved
void saveLanguage(const QString& code);

// The translation a choice loads: "en" or "zh_CN". "system" takes the first of the locale's
// UI languages that has one (Chinese in Simplified Han: zh_CN, zh_SG), else English.
QString resolveLanguage(const QString& choice, const QLocale& system = QLocale::system());

}  // namespace lf::ui
