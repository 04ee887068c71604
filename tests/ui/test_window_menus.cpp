// The studio window's keys and Help menu, driven by real key presses: every platform redo key
// and Ctrl+Y redo; Ctrl+Z right after an inspector edit undoes it in the document (not in the
// spin box); Help lists the shortcuts and says the versions of Qt, oneDNN and CUDA; the crash
// recovery prompt names the project.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "document/project_document.h"
#include "document/recovery.h"
#include "document/rename_node.h"
#include "inspector/inspector.h"
#include "inspector/param_editor.h"
#include "mainwindow/main_window.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

QAction* menuAction(QMainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (a->text().remove('&') == text) return a;
    return nullptr;
}

std::string denseName(MainWindow& w) { return w.document()->graph().find("dense")->name; }

}  // namespace

class TestWindowMenus : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void everyRedoKeyRedoes() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        loadTemplate(*w.document());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Redo);
        keys << QKeySequence(Qt::CTRL | Qt::Key_Y) << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
        for (const QKeySequence& key : keys) {
            w.document()->push(new RenameNodeCommand(w.document(), "dense", "hidden"));
            w.view()->setFocus();
            QTest::keySequence(&w, QKeySequence::Undo);
            QCOMPARE(denseName(w), std::string("dense"));
            QTest::keySequence(&w, key);
            QVERIFY2(denseName(w) == "hidden", qPrintable(key.toString() + " did not redo"));
            w.document()->undoStack()->undo();
        }
    }

    void undoAfterAnInspectorEditUndoesInTheDocument() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        loadTemplate(*w.document());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->selectNodes({"dense"});
        auto* units = w.inspector()->editor("units")->findChild<QSpinBox*>();
        QVERIFY(units);
        const int before = units->value();
        units->setFocus();
        units->selectAll();
        QTest::keyClicks(units, "64");
        QTest::keyClick(units, Qt::Key_Return);
        const auto unitsOf = [&] { return std::get<std::int64_t>(w.document()->graph().find("dense")->params.at("units")); };
        QCOMPARE(unitsOf(), std::int64_t(64));
        QVERIFY(units->hasFocus());
        QTest::keySequence(units, QKeySequence::Undo);
        QCOMPARE(unitsOf(), std::int64_t(before));
        QCOMPARE(units->value(), before);  // the editor follows the document
        QTest::keySequence(units, QKeySequence(Qt::CTRL | Qt::Key_Y));
        QCOMPARE(unitsOf(), std::int64_t(64));

        auto* name = w.inspector()->findChild<QLineEdit*>();
        name->setFocus();
        name->selectAll();
        QTest::keyClicks(name, "wide");
        QTest::keyClick(name, Qt::Key_Return);
        QCOMPARE(denseName(w), std::string("wide"));
        QTest::keySequence(name, QKeySequence::Undo);
        QCOMPARE(denseName(w), std::string("dense"));
    }

    void helpMenuShowsShortcutsAndVersions() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.show();
        QAction* about = menuAction(w, "About Layerforge");
        QVERIFY(about);
        about->trigger();
        auto* box = w.findChild<QMessageBox*>("aboutBox");
        QVERIFY(box);
        const QString text = box->text();
        QVERIFY2(text.contains(QString("Qt %1").arg(qVersion())), qPrintable(text));
        QVERIFY2(text.contains("oneDNN "), qPrintable(text));
        QVERIFY2(text.contains("CUDA: "), qPrintable(text));
        box->close();

        QAction* shortcuts = menuAction(w, "Keyboard Shortcuts");
        QVERIFY(shortcuts);
        shortcuts->trigger();
        auto* dialog = w.findChild<QDialog*>("shortcutsDialog");
        QVERIFY(dialog && dialog->isVisible());
        auto* table = dialog->findChild<QTableWidget*>();
        QString redo;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->text() == "Edit > Redo") redo = table->item(r, 1)->text();
        QVERIFY2(redo.contains(QKeySequence(Qt::CTRL | Qt::Key_Y).toString(QKeySequence::NativeText)), qPrintable(redo));
        dialog->close();
    }

    void recoveryPromptNamesTheProject() {
        const QString recoveryPath = dir_.filePath("crashed.lfproj");
        {
            ProjectDocument doc;
            loadTemplate(doc);
            Recovery recovery(&doc, recoveryPath, 3600000);
            doc.push(new RenameNodeCommand(&doc, "dense", "hidden"));
            QVERIFY(recovery.writeNow());
        }
        MainWindow w(recoveryPath, 3600000);
        QString prompt;
        QTimer::singleShot(0, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            prompt = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        w.offerRecovery();
        QVERIFY2(prompt.contains("fashion_functional.lfproj"), qPrintable(prompt));
        QCOMPARE(denseName(w), std::string("hidden"));
    }
};

QTEST_MAIN(TestWindowMenus)
#include "test_window_menus.moc"
