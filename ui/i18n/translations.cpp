#include "i18n/translations.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace lf::ui {

namespace {

const char* const kTranslatorName = "lfTranslator";

bool install(const QString& file) {
    auto* translator = new QTranslator(QCoreApplication::instance());
    translator->setObjectName(kTranslatorName);
    if (translator->load(file) && QCoreApplication::installTranslator(translator)) return true;
    delete translator;
    return false;
}

// Han characters are shared by Chinese and Japanese, and fontconfig picks the Japanese forms
// ("Noto Sans CJK JP") unless the process locale is Chinese. So the Chinese UI puts a
// Simplified Chinese family right after the UI font, whatever the locale.
void preferSimplifiedChineseGlyphs() {
    auto* app = qobject_cast<QGuiApplication*>(QCoreApplication::instance());
    if (!app) return;
    const QStringList installed = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    for (const char* family : {"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN",
                               "WenQuanYi Micro Hei", "WenQuanYi Zen Hei"}) {
        if (!installed.contains(family)) continue;
        QFont font = QGuiApplication::font();
        font.setFamilies({font.family(), family});
        QGuiApplication::setFont(font);
        return;
    }
}

}  // namespace

QStringList installTranslations(const QString& code) {
    QStringList loaded;
    const QString ours = QStringLiteral(":/i18n/layerforge_%1.qm").arg(code);
    if (install(ours)) loaded << ours;
    // The source strings are English, so Qt's English is its built-in text.
    if (code == QLatin1String("zh_CN")) preferSimplifiedChineseGlyphs();
    if (code != QLatin1String("en")) {
        const QString qt = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + "/qtbase_" + code + ".qm";
        if (QFileInfo::exists(qt) && install(qt)) loaded << qt;
    }
    return loaded;
}

void removeTranslations() {
    const auto translators = QCoreApplication::instance()->findChildren<QTranslator*>(
        kTranslatorName, Qt::FindDirectChildrenOnly);
    for (QTranslator* t : translators) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

}  // namespace lf::ui
