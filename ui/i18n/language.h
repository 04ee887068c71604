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

QList<LanguageChoice> languageChoices();

QString savedLanguage();  // "system" when nothing (or something unknown) is saved
void saveLanguage(const QString& code);

// The translation a choice loads: "zh_CN" for Simplified Chinese (chosen, or a system locale
// written in Simplified Han), "en" for everything else.
QString resolveLanguage(const QString& choice, const QLocale& system = QLocale::system());

}  // namespace lf::ui
