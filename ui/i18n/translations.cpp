#include "i18n/translations.h"

#include <QCoreApplication>
#include <QFileInfo>
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

}  // namespace

QStringList installTranslations(const QString& code) {
    QStringList loaded;
    const QString ours = QStringLiteral(":/i18n/layerforge_%1.qm").arg(code);
    if (install(ours)) loaded << ours;
    // The source strings are English, so Qt's English is its built-in text.
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
