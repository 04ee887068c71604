// Opening another project leaves nothing of the previous one on any page: the Train page's run,
// curves, progress and failure banner, the Checkpoints table and comparison, the Evaluate
// results and shown sample, and the Data page's inspection all follow the new project's store
// and binding; opening the first project again shows its checkpoints again.
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "charts/training_charts.h"
#include "checkpoints/checkpoint_browser.h"
#include "checkpoints/checkpoint_table_model.h"
#include "dataset/dataset_panel.h"
#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "image_folder_fixture.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/error_banner.h"
#include "training/training_controller.h"
#include "training/training_panel.h"
#include "training/training_progress.h"

using namespace lf;
using namespace lf::ui;

class TestProjectSwitch : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void train(TrainingController* c, lf::RunStatus expected) {
        QSignalSpy finished(c, &TrainingController::finished);
        QVERIFY(c->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), expected);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));
        writeImageFolder(dir_.filePath("other"));
        QDir(dir_.filePath("other/train/mid")).removeRecursively();
        QDir(dir_.filePath("other/test/mid")).removeRecursively();
    }

    void everyPageShowsTheOpenedProject() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        const QString first = dir_.filePath("first.lfproj"), second = dir_.filePath("second.lfproj");
        w.document()->reset(tinyImageProject(dir_.filePath("other"), 1), {});
        QString error;
        QVERIFY2(w.document()->saveAs(second, &error), qPrintable(error));
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1), {});
        QVERIFY2(w.document()->saveAs(first, &error), qPrintable(error));
        w.show();

        auto* panel = w.findChild<TrainingPanel*>();
        auto* charts = w.findChild<TrainingCharts*>();
        auto* browser = w.findChild<CheckpointBrowser*>();
        auto* evaluation = w.findChild<EvaluationView*>();
        auto* dataset = w.findChild<DatasetPanel*>();
        auto* banner = w.findChild<ErrorBanner*>();
        TrainingController* c = panel->controller();

        // The first project: a finished run with curves and a checkpoint, an evaluation, then a
        // failed run (its data folder cannot be read) leaving the banner up.
        train(c, lf::RunStatus::Finished);
        QVERIFY(charts->pointCount("loss") > 0);
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() > 0, 5000);
        QSignalSpy evaluated(evaluation, &EvaluationView::evaluated);
        evaluation->evaluate();
        QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 20000);
        QVERIFY(evaluation->result().matrix.total() > 0);
        w.workspaces()->setCurrentWidget(dataset);
        QTRY_VERIFY_WITH_TIMEOUT(!dataset->isLoading() && dataset->summary().classes.size() == 3, 10000);
        Project broken = w.document()->project();
        broken.dataset.path = dir_.filePath("missing").toStdString();
        w.document()->reset(broken, first);
        train(c, lf::RunStatus::Failed);
        QVERIFY(!banner->message().isEmpty());

        QVERIFY(w.openFile(second));
        QCOMPARE(charts->pointCount("loss"), 0);
        QCOMPARE(charts->pointCount("accuracy"), 0);
        QVERIFY(charts->liveTitle().isEmpty());
        QVERIFY(charts->overlayRuns().isEmpty());
        QVERIFY(panel->progress()->statusText().isEmpty());
        QCOMPARE(panel->progress()->bar()->value(), 0);
        QVERIFY2(banner->message().isEmpty(), qPrintable(banner->message()));
        QTRY_COMPARE_WITH_TIMEOUT(browser->model()->rowCount(), 0, 5000);
        QCOMPARE(evaluation->result().matrix.total(), std::int64_t(0));
        QCOMPARE(evaluation->scoresTable()->rowCount(), 0);
        QCOMPARE(evaluation->probabilities()->topLevelItemCount(), 0);
        QVERIFY(evaluation->summary()->text().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!dataset->isLoading() && dataset->summary().classes.size() == 2, 10000);
        QCOMPARE(dataset->summary().source, dir_.filePath("other"));

        QVERIFY(w.openFile(first));
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() > 0, 5000);

        // Another project on the same data: the Data page still shows that project's Input.
        Project wide = tinyImageProject(dir_.filePath("images"), 1);
        wide.graph.nodes[0].params["shape"] = IntList{16, 16, 1};
        w.document()->reset(wide, dir_.filePath("wide.lfproj"));
        QVERIFY2(dataset->modelInput()->text().contains("16"), qPrintable(dataset->modelInput()->text()));
    }

    // A run going when another project opens is stopped, and none of its later events reach
    // the new project's charts.
    void openingAnotherProjectStopsARun() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        const QString other = dir_.filePath("switch_to.lfproj");
        w.document()->reset(tinyImageProject(dir_.filePath("other"), 1), {});
        QString error;
        QVERIFY2(w.document()->saveAs(other, &error), qPrintable(error));
        // Far more epochs than it can run before the switch (a few hundred steps a second):
        // the run must be going when the other project opens, on a loaded machine too.
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1000000), dir_.filePath("long.lfproj"));
        w.show();
        auto* panel = w.findChild<TrainingPanel*>();
        auto* charts = w.findChild<TrainingCharts*>();
        TrainingController* c = panel->controller();
        QSignalSpy finished(c, &TrainingController::finished);
        QVERIFY(c->start());
        QTRY_VERIFY_WITH_TIMEOUT(charts->pointCount("loss") > 0, 20000);
        QVERIFY(w.openFile(other));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Stopped);
        QCoreApplication::processEvents();
        QCOMPARE(charts->pointCount("loss"), 0);
        QVERIFY(!w.session()->hasWeights());
        QVERIFY(panel->startButton()->isEnabled());
    }
};

QTEST_MAIN(TestProjectSwitch)
#include "test_project_switch.moc"
