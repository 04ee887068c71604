#include "i18n/language.h"

#include <QCoreApplication>
#include <QSettings>

namespace lf::ui {

namespace {

struct Language {
    Q_DECLARE_TR_FUNCTIONS(Language)
};

const char* const kLanguageKey = "ui/language";

// The translations embedded under :/i18n, each named in its own script.
const QList<LanguageChoice>& translated() {
    static const QList<LanguageChoice> list = {{"en", QStringLiteral("English")},
                                               {"zh_CN", QStringLiteral("简体中文")}};
    return list;
}

bool known(const QString& code) {
    for (const LanguageChoice& c : translated())
        if (c.code == code) return true;
    return false;
}

}  // namespace

QList<LanguageChoice> languageChoices() {
    QList<LanguageChoice> choices = translated();
    const QString system = resolveLanguage(kSystemLanguage);
    for (const LanguageChoice& c : translated())
        if (c.code == system) choices.prepend({kSystemLanguage, Language::tr("System (%1)").arg(c.name)});
    return choices;
}

QString savedLanguage() {
    const QString code = QSettings().value(kLanguageKey).toString();
    return known(code) ? code : QString(kSystemLanguage);  // "system", nothing saved, or unknown
}

void saveLanguage(const QString& code) { QSettings().setValue(kLanguageKey, code); }

QString resolveLanguage(const QString& choice, const QLocale& system) {
    if (choice != kSystemLanguage) return known(choice) ? choice : QStringLiteral("en");
    // The desktop's UI languages in order of preference (LANGUAGE, LC_MESSAGES on Linux): the
    // first one translated wins, as with gettext.
    for (const QString& name : system.uiLanguages()) {
        const QLocale ui(name);
        if (ui.language() == QLocale::English) return QStringLiteral("en");
        if (ui.language() == QLocale::Chinese && ui.script() == QLocale::SimplifiedHanScript)
            return QStringLiteral("zh_CN");
    }
    return QStringLiteral("en");
}

}  // namespace lf::ui
