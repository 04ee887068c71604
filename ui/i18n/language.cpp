#include "i18n/language.h"

#include <QCoreApplication>
#include <QSettings>

namespace lf::ui {

namespace {

struct Language {
    Q_DECLARE_TR_FUNCTIONS(Language)
};

const char* const kLanguageKey = "ui/language";

bool known(const QString& code) {
    for (const LanguageChoice& c : languageChoices())
        if (c.code == code) return true;
    return false;
}

}  // namespace

QList<LanguageChoice> languageChoices() {
    const QString system = QLocale::system().nativeLanguageName();
    return {{kSystemLanguage, Language::tr("System (%1)").arg(system)},
            {"en", QStringLiteral("English")},
            {"zh_CN", QStringLiteral("简体中文")}};
}

QString savedLanguage() {
    const QString code = QSettings().value(kLanguageKey).toString();
    return known(code) ? code : QString(kSystemLanguage);
}

void saveLanguage(const QString& code) { QSettings().setValue(kLanguageKey, code); }

QString resolveLanguage(const QString& choice, const QLocale& system) {
    if (choice != kSystemLanguage) return known(choice) ? choice : QStringLiteral("en");
    const bool simplifiedChinese =
        system.language() == QLocale::Chinese && system.script() == QLocale::SimplifiedHanScript;
    return simplifiedChinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

}  // namespace lf::ui
