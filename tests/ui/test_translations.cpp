// UI languages: the Simplified Chinese .ts translates every tr() string of ui/ and app/gui/
// (scripts/update_translations.sh, rerun on copies, finds nothing new or stale), the English
// one every plural form; the embedded .qm files translate the studio at run time; the
// language choice resolves and persists, and Preferences saves it.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFontDatabase>
#include <QLibraryInfo>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QtTest>

#include "i18n/language.h"
#include "i18n/translations.h"
#include "mainwindow/main_window.h"
#include "preferences/preferences_dialog.h"
#include "ts_file.h"

using namespace lf::ui;

namespace {

QString sourceDir() { return qEnvironmentVariable("LF_SOURCE_DIR"); }
QString committedTs(const QString& lang) { return sourceDir() + "/translations/layerforge_" + lang + ".ts"; }

struct ScriptRun {
    int exitCode = -1;
    QString output;
};

// Runs scripts/update_translations.sh on copies of the committed .ts files in tsDir, scanning
// root (default: the checkout).
ScriptRun runUpdateScript(const QString& tsDir, const QString& root = {}) {
    for (const char* lang : {"zh_CN", "en"}) {
        const QString copy = tsDir + "/layerforge_" + lang + ".ts";
        QFile::remove(copy);
        QFile::copy(committedTs(lang), copy);
        QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LF_TS_DIR", tsDir);
    env.insert("LUPDATE", QLibraryInfo::path(QLibraryInfo::BinariesPath) + "/lupdate");
    if (!root.isEmpty()) env.insert("LF_I18N_ROOT", root);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("bash", {sourceDir() + "/scripts/update_translations.sh"});
    if (!p.waitForFinished(60000)) return {-1, "update_translations.sh did not finish"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAll())};
}

bool writeFile(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QStringList unfinished(const TsFile& ts) {
    QStringList out;
    for (const TsEntry& e : ts.entries) {
        bool empty = e.translations.isEmpty();
        for (const QString& t : e.translations) empty = empty || t.isEmpty();
        if (e.live() && (e.type == "unfinished" || empty)) out << e.describe();
    }
    return out;
}

QStringList liveKeys(const TsFile& ts) {
    QStringList keys;
    for (const TsEntry& e : ts.entries)
        if (e.live()) keys << e.key();
    keys.sort();
    return keys;
}

// What a translation must keep from its source: the %1..%99 and %n placeholders, the [*] of
// a window title, and one keyboard mnemonic when the source has one.
QString placeholderProblem(const TsEntry& e, const QString& translation) {
    static const QRegularExpression placeholder(R"(%(\d+|n))");
    auto placeholders = [](const QString& s) {
        QStringList found;
        for (const auto& m : placeholder.globalMatch(s)) found << m.captured();
        found.sort();
        return found;
    };
    auto mnemonics = [](QString s) { return s.remove("&&").count('&'); };
    if (placeholders(translation) != placeholders(e.source)) return "placeholders differ";
    if (e.source.contains("[*]") != translation.contains("[*]")) return "[*] differs";
    if (mnemonics(e.source) != mnemonics(translation)) return "mnemonics differ";
    return {};
}

QString tabAndDockTitles(MainWindow& w) {
    return w.workspaces()->tabText(0) + '|' + w.findChild<QDockWidget*>("palette")->windowTitle();
}

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!sourceDir().isEmpty(), "LF_SOURCE_DIR is not set");
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
        QCoreApplication::setOrganizationName("LayerforgeTest");
        QCoreApplication::setApplicationName("test_translations");
    }

    void cleanup() { removeTranslations(); }

    void chineseIsComplete() {
        const TsFile ts = readTs(committedTs("zh_CN"));
        QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
        QCOMPARE(ts.language, QString("zh_CN"));
        QVERIFY2(ts.entries.size() > 100, "the zh_CN .ts has suspiciously few entries");
        const QStringList missing = unfinished(ts);
        QVERIFY2(missing.isEmpty(), qPrintable("untranslated in layerforge_zh_CN.ts:\n" + missing.join('\n')));
        QStringList broken;
        for (const TsEntry& e : ts.entries) {
            QCOMPARE(e.translations.size(), 1);  // Chinese has a single plural form
            const QString problem = placeholderProblem(e, e.translations[0]);
            if (!problem.isEmpty()) broken << e.describe() + " -> " + e.translations[0] + ": " + problem;
        }
        QVERIFY2(broken.isEmpty(), qPrintable(broken.join('\n')));
    }

    void englishHasEveryPluralForm() {
        const TsFile ts = readTs(committedTs("en"));
        QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
        QVERIFY(!ts.entries.isEmpty());
        const QStringList missing = unfinished(ts);
        QVERIFY2(missing.isEmpty(), qPrintable("unfinished in layerforge_en.ts:\n" + missing.join('\n')));
        for (const TsEntry& e : ts.entries) {
            QVERIFY2(e.numerus, qPrintable(e.describe() + " is not a plural form"));
            QCOMPARE(e.translations.size(), 2);
            QVERIFY2(!e.translations[0].contains("(s)") && !e.translations[1].contains("(s)"), qPrintable(e.describe()));
            QVERIFY2(e.translations[0] != e.translations[1], qPrintable(e.describe()));
            for (const QString& t : e.translations) QCOMPARE(placeholderProblem(e, t), QString());
        }
    }

    // Every tr() string lupdate finds has an entry, and no live entry is stale (vanished ones,
    // translations waiting for a merge to bring their strings, are not live).
    void tsFilesMatchTheSources() {
        QTemporaryDir dir;
        const ScriptRun run = runUpdateScript(dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        for (const char* lang : {"zh_CN", "en"}) {
            const TsFile fresh = readTs(dir.filePath(QString("layerforge_%1.ts").arg(lang)));
            const TsFile committed = readTs(committedTs(lang));
            QVERIFY2(fresh.error.isEmpty(), qPrintable(fresh.error));
            const QStringList missing = unfinished(fresh);
            QVERIFY2(missing.isEmpty(), qPrintable(QString("tr() strings without a %1 translation (run "
                                                           "scripts/update_translations.sh, then translate):\n")
                                                       .arg(lang) + missing.join('\n')));
            QVERIFY2(liveKeys(fresh) == liveKeys(committed),
                     qPrintable(QString("layerforge_%1.ts keeps strings the sources no longer have: run "
                                        "scripts/update_translations.sh").arg(lang)));
        }
    }

    // The mechanism the test above relies on, on a fixture: a new tr() string becomes an
    // unfinished entry, and tr() in a class without Q_OBJECT (never translated at run time:
    // the context lupdate records is not the one tr() looks up) fails the script.
    void updateScriptFindsNewStringsAndRefusesTrWithoutQObject() {
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath("app/gui"));
        QVERIFY(writeFile(root.filePath("ui/panel.cpp"),
                          "class TrainingPanel : public QWidget {\n    Q_OBJECT\n"
                          "    void build() { setWindowTitle(tr(\"Start training\")); }\n};\n"));
        ScriptRun run = runUpdateScript(root.path(), root.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        QVERIFY2(run.output.contains("layerforge_zh_CN.ts: 1 unfinished"), qPrintable(run.output));
        const TsFile zh = readTs(root.filePath("layerforge_zh_CN.ts"));
        QCOMPARE(unfinished(zh), QStringList{"TrainingPanel: \"Start training\""});

        QVERIFY(writeFile(root.filePath("ui/editor.cpp"),
                          "class ParamEditor : public QWidget {\n    Q_OBJECT\n};\n"
                          "class FloatEditor : public ParamEditor {\n"
                          "    QString check() { return tr(\"not a number\"); }\n};\n"));
        run = runUpdateScript(root.path(), root.path());
        QVERIFY2(run.exitCode != 0, qPrintable(run.output));
        QVERIFY2(run.output.contains("lacks Q_OBJECT"), qPrintable(run.output));
    }

    void embeddedChineseTranslatesTheStudio() {
        const QStringList loaded = installTranslations("zh_CN");
        QVERIFY2(loaded.contains(":/i18n/layerforge_zh_CN.qm"), qPrintable(loaded.join(", ")));
        QTemporaryDir dir;
        {
            MainWindow window(dir.filePath("recovery.lfproj"));
            QCOMPARE(tabAndDockTitles(window), QString("设计|层"));
            QCOMPARE(window.findChild<QDockWidget*>("summary")->windowTitle(), QString("模型摘要"));
        }
        QCOMPARE(QCoreApplication::translate("lf::ui::CanvasScene", "Move %n layer(s)", nullptr, 3), QString("移动 3 个层"));
        QCOMPARE(QCoreApplication::translate("ModelStats", "valid"), QString("有效"));  // Q_DECLARE_TR_FUNCTIONS context
        QCOMPARE(QCoreApplication::translate("lf::ui::ParamEditor", "Default: %1"), QString("默认值：%1"));
        // Qt's own strings (standard buttons) come from qtbase_zh_CN, which setup.sh installs.
        QVERIFY2(loaded.size() == 2 && loaded[1].endsWith("/qtbase_zh_CN.qm"), qPrintable(loaded.join(", ")));
        QDialogButtonBox buttons(QDialogButtonBox::Cancel);
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), QString("取消"));

        removeTranslations();
        MainWindow english(dir.filePath("recovery2.lfproj"));
        QCOMPARE(tabAndDockTitles(english), QString("Design|Layers"));
    }

    // Chinese glyphs need a CJK font (fonts-noto-cjk, installed by scripts/setup.sh).
    void aSimplifiedChineseFontIsInstalled() {
        const QStringList families = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
        QVERIFY2(!families.isEmpty(), "no font covers Simplified Chinese: install fonts-noto-cjk");
        // and the Chinese UI asks for its Simplified forms, not fontconfig's Japanese default
        const QFont before = QApplication::font();
        installTranslations("zh_CN");
        QVERIFY2(QApplication::font().families().contains("Noto Sans CJK SC"),
                 qPrintable(QApplication::font().families().join(", ")));
        QApplication::setFont(before);
    }

    void englishPluralForms() {
        QCOMPARE(installTranslations("en"), QStringList{":/i18n/layerforge_en.qm"});
        QCOMPARE(QCoreApplication::translate("lf::ui::CanvasScene", "Move %n layer(s)", nullptr, 1), QString("Move 1 layer"));
        QCOMPARE(QCoreApplication::translate("lf::ui::CanvasScene", "Move %n layer(s)", nullptr, 3), QString("Move 3 layers"));
        QCOMPARE(QCoreApplication::translate("lf::ui::MainWindow", "Design"), QString("Design"));
    }

    void resolveLanguage_data() {
        QTest::addColumn<QString>("choice");
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("expected");
        QTest::newRow("system zh_CN") << "system" << "zh_CN" << "zh_CN";
        QTest::newRow("system zh_SG (Simplified)") << "system" << "zh_SG" << "zh_CN";
        QTest::newRow("system zh_TW (Traditional)") << "system" << "zh_TW" << "en";
        QTest::newRow("system de_DE") << "system" << "de_DE" << "en";
        QTest::newRow("system zh (no country)") << "system" << "zh" << "zh_CN";
        QTest::newRow("English on a Chinese desktop") << "en" << "zh_CN" << "en";
        QTest::newRow("Chinese on an English desktop") << "zh_CN" << "en_US" << "zh_CN";
        QTest::newRow("unknown choice") << "fr" << "zh_CN" << "en";
    }

    void resolveLanguage() {
        QFETCH(QString, choice);
        QFETCH(QString, system);
        QFETCH(QString, expected);
        QCOMPARE(lf::ui::resolveLanguage(choice, QLocale(system)), expected);
    }

    void languageChoiceIsSaved() {
        QSettings().remove("ui/language");
        QCOMPARE(savedLanguage(), QString("system"));
        saveLanguage("zh_CN");
        QCOMPARE(savedLanguage(), QString("zh_CN"));
        QSettings().setValue("ui/language", "klingon");
        QCOMPARE(savedLanguage(), QString("system"));
    }

    void preferencesSavesTheLanguage() {
        saveLanguage("en");
        PreferencesDialog dialog;
        QComboBox* box = dialog.languageBox();
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->currentData().toString(), QString("en"));
        QCOMPARE(box->itemText(box->findData("zh_CN")), QString("简体中文"));
        const QString system = lf::ui::resolveLanguage("system") == "zh_CN" ? "简体中文" : "English";
        QCOMPARE(box->itemText(box->findData("system")), QString("System (%1)").arg(system));
        box->setCurrentIndex(box->findData("zh_CN"));
        dialog.accept();
        QCOMPARE(savedLanguage(), QString("zh_CN"));

        PreferencesDialog again;
        again.languageBox()->setCurrentIndex(again.languageBox()->findData("system"));
        again.reject();
        QCOMPARE(savedLanguage(), QString("zh_CN"));  // Cancel keeps the saved choice
    }

    void editMenuOpensPreferences() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        QAction* preferences = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->menuRole() == QAction::PreferencesRole) preferences = a;
        QVERIFY(preferences);
        QCOMPARE(preferences->text(), QString("&Preferences…"));
        bool opened = false;
        QTimer::singleShot(0, this, [&opened] {
            auto* dialog = qobject_cast<PreferencesDialog*>(QApplication::activeModalWidget());
            opened = dialog != nullptr;
            if (dialog) dialog->reject();
        });
        preferences->trigger();  // returns when the dialog closes
        QVERIFY(opened);
    }

private:
    QTemporaryDir settingsDir_;
};

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
