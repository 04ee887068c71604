// A project opened from a read-only folder (the installed templates) still trains: it opens as
// an untitled copy, and pressing Start asks where to save it, so the run store goes there and
// nothing is written beside the original. The folder is a tmpfs remounted read-only in a
// private user and mount namespace (`unshare -rm`, as tests/cli/test_cli_faults.cpp does): the
// test runs itself again in there with LF_RO_DIR set.
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "document/project_document.h"
#include "image_folder_fixture.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/training_controller.h"
#include "training/training_panel.h"

using namespace lf;
using namespace lf::ui;

class TestReadOnlyProject : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void opensAsACopyAndTrainsWhereTheUserSaves() {
        const QString readOnly = qEnvironmentVariable("LF_RO_DIR");
        if (readOnly.isEmpty()) return runInReadOnlyNamespace();
        const QString original = readOnly + "/template.lfproj";
        QVERIFY2(!QFileInfo(readOnly).isWritable() || !QFile(readOnly + "/probe").open(QIODevice::WriteOnly),
                 "the folder is writable: the remount did not happen");

        MainWindow w(qEnvironmentVariable("LF_RO_OUT") + "/recovery.lfproj", 3600000);
        w.show();
        QVERIFY(w.openFile(original));
        QVERIFY2(w.document()->fileName().isEmpty(), qPrintable(w.document()->fileName()));
        QCOMPARE(w.document()->project().name, std::string("template"));  // the project, not an empty one
        QVERIFY(!w.document()->isModified());

        const QString saved = qEnvironmentVariable("LF_RO_OUT") + "/mine.lfproj";
        QString title;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            title = dialog->windowTitle();
            dialog->selectFile(saved);
            QMetaObject::invokeMethod(dialog, "accept");  // protected: what the Save button does
        });
        auto* panel = w.findChild<TrainingPanel*>();
        QSignalSpy finished(panel->controller(), &TrainingController::finished);
        panel->startButton()->click();
        QVERIFY2(title.contains("template.lfproj"), qPrintable(title));
        QCOMPARE(w.document()->fileName(), saved);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QCOMPARE(QFileInfo(w.session()->storePath()).absolutePath(), QFileInfo(saved).absolutePath());
        QVERIFY(QFile::exists(w.session()->storePath()));
        QCOMPARE(QDir(readOnly).entryList(QDir::Files), QStringList{"template.lfproj"});
    }

private:
    void runInReadOnlyNamespace() {
        writeImageFolder(dir_.filePath("images"));
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 1), {});
        QString error;
        QVERIFY2(doc.saveAs(dir_.filePath("template.lfproj"), &error), qPrintable(error));
        const QString vol = dir_.filePath("ro"), out = dir_.filePath("out");
        QVERIFY(QDir().mkpath(vol) && QDir().mkpath(out));
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LF_RO_DIR", vol);
        env.insert("LF_RO_OUT", out);
        env.insert("SRC", dir_.filePath("template.lfproj"));
        env.insert("SELF", QCoreApplication::applicationFilePath());
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start("unshare", {"-rm", "sh", "-c",
                                "mount -t tmpfs -o size=1m tmpfs \"$LF_RO_DIR\" && cp \"$SRC\" \"$LF_RO_DIR/\" && "
                                "mount -o remount,ro \"$LF_RO_DIR\" && exec \"$SELF\" opensAsACopyAndTrainsWhereTheUserSaves"});
        QVERIFY(child.waitForFinished(60000));
        const QString log = QString::fromUtf8(child.readAll());
        QVERIFY2(child.exitCode() == 0 && log.contains("PASS   : TestReadOnlyProject::opensAsACopyAndTrainsWhereTheUserSaves"),
                 qPrintable(log));
    }
};

QTEST_MAIN(TestReadOnlyProject)
#include "test_read_only_project.moc"
