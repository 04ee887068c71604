// The studio fits a 1366 x 768 laptop screen: on every workspace the main window's minimum size
// is at most 1280 x 720, on a fresh window, after a finished run (whose curves add the
// learning-rate chart) and with a long failure banner showing. The window's geometry and dock
// layout come back in the next window, and View > Reset layout restores the default docks.
#include <QAction>
#include <QDockWidget>
#include <QLayout>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/training_charts.h"
#include "document/project_document.h"
#include "image_folder_fixture.h"
#include "mainwindow/main_window.h"
#include "training/error_banner.h"
#include "training/training_controller.h"
#include "training/training_panel.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

constexpr int kMaxWidth = 1280, kMaxHeight = 720;

QAction* menuAction(QMainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (a->text().remove('&') == text) return a;
    return nullptr;
}

// The smallest size the window's layout allows, on each workspace in turn.
void checkEveryPageFits(MainWindow& w, const char* when) {
    for (int i = 0; i < w.workspaces()->count(); ++i) {
        w.workspaces()->setCurrentIndex(i);
        QCoreApplication::processEvents();
        const QSize min = w.layout()->totalMinimumSize().expandedTo(w.minimumSize());
        const QString what = QStringLiteral("%1, page %2 (%3): minimum %4 x %5")
                                 .arg(when, QString::number(i), w.workspaces()->tabText(i))
                                 .arg(min.width()).arg(min.height());
        QVERIFY2(min.width() <= kMaxWidth && min.height() <= kMaxHeight, qPrintable(what));
    }
}

}  // namespace

class TestWindowFit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));
        QSettings().clear();
    }

    void freshWindowFitsOnEveryPage() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.show();
        checkEveryPageFits(w, "fresh");
        loadTemplate(*w.document(), "fashion_cnn.lfproj");
        checkEveryPageFits(w, "a template opened");
    }

    void finishedRunAndFailureBannerFit() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1), dir_.filePath("fit.lfproj"));
        w.show();
        auto* panel = w.findChild<TrainingPanel*>();
        auto* charts = w.findChild<TrainingCharts*>();
        TrainingController* c = panel->controller();
        TrainingOptions o = c->options();
        o.logEvery = 1;
        c->setOptions(o);
        QSignalSpy finished(c, &TrainingController::finished);
        w.workspaces()->setCurrentWidget(panel);
        QVERIFY(c->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        charts->replotNow();
        QVERIFY2(charts->families().contains("lr"), "the finished run has a learning-rate chart");
        QVERIFY(charts->plot("lr")->isVisibleTo(charts));
        checkEveryPageFits(w, "after a finished run");

        auto* banner = w.findChild<ErrorBanner*>();
        banner->showMessage(QString("Training failed: ") + QString("the data folder went away; ").repeated(30));
        checkEveryPageFits(w, "with a failure banner");
    }

    // Design -> Train -> Checkpoints -> Design: the docks come back (leaving a second page
    // used to record them as closed). Opening a Design dock from View elsewhere shows Design.
    void designDocksFollowTheirPage() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.show();
        QCoreApplication::processEvents();
        w.workspaces()->setCurrentIndex(2);
        w.resize(900, 600);
        w.workspaces()->setCurrentIndex(3);
        QCoreApplication::processEvents();
        for (const char* name : {"palette", "inspector", "summary"}) QVERIFY(w.findChild<QDockWidget*>(name)->isHidden());
        w.workspaces()->setCurrentIndex(0);
        for (const char* name : {"palette", "inspector", "summary"})
            QVERIFY2(w.findChild<QDockWidget*>(name)->isVisible(), name);

        auto* summary = w.findChild<QDockWidget*>("summary");
        summary->close();
        w.workspaces()->setCurrentIndex(2);
        w.workspaces()->setCurrentIndex(0);
        QVERIFY2(summary->isHidden(), "a dock the user closed stays closed");
        w.workspaces()->setCurrentIndex(2);
        summary->toggleViewAction()->trigger();
        QCOMPARE(w.workspaces()->currentIndex(), 0);
        QVERIFY(summary->isVisible());
        const QSize min = w.layout()->totalMinimumSize();
        QVERIFY(min.width() <= kMaxWidth && min.height() <= kMaxHeight);
    }

    // A first start on a laptop screen (1366 x 768 less a panel; the offscreen platform's 800 x
    // 600) opens maximized; a larger screen gets 90% of it; a saved geometry wins over both.
    void firstStartIsMaximizedOnALaptopScreen() {
        QVERIFY(MainWindow::startsMaximized({1366, 728}));
        QVERIFY(MainWindow::startsMaximized({800, 600}));
        QVERIFY(!MainWindow::startsMaximized({1920, 1050}));
        QSettings().clear();
        QSize saved;
        {
            MainWindow first(dir_.filePath("recovery.lfproj"), 3600000);
            first.showFitted();
            QVERIFY(first.isMaximized());
            first.showNormal();
            first.resize(760, 600);
            QCoreApplication::processEvents();
            saved = first.size();
            first.close();
        }
        MainWindow again(dir_.filePath("recovery.lfproj"), 3600000);
        again.showFitted();
        QCoreApplication::processEvents();
        QVERIFY(!again.isMaximized());
        QCOMPARE(again.size(), saved);
    }

    void geometryAndDocksAreRestoredAndResetLayoutBringsDocksBack() {
        QByteArray state;
        {
            MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
            w.show();
            w.resize(1100, 650);
            auto* summary = w.findChild<QDockWidget*>("summary");
            summary->hide();
            QCoreApplication::processEvents();
            w.close();
        }
        MainWindow again(dir_.filePath("recovery.lfproj"), 3600000);
        again.show();
        QCoreApplication::processEvents();
        QCOMPARE(again.size(), QSize(1100, 650));
        QVERIFY(again.findChild<QDockWidget*>("summary")->isHidden());

        QAction* reset = menuAction(again, "Reset layout");
        QVERIFY(reset);
        reset->trigger();
        QCoreApplication::processEvents();
        for (const char* name : {"palette", "inspector", "summary"})
            QVERIFY2(again.findChild<QDockWidget*>(name)->isVisible(), name);
        const QSize min = again.layout()->totalMinimumSize();
        QVERIFY(min.width() <= kMaxWidth && min.height() <= kMaxHeight);
    }
};

QTEST_MAIN(TestWindowFit)
#include "test_window_fit.moc"
