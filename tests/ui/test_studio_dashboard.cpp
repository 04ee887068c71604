// The workspaces working together in one window: training started from the Train page feeds the
// live charts and the progress bar, its checkpoints appear in the Checkpoints table, and Resume
// in the browser continues the same run on the Train page with its curves.
#include <QProgressBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/training_charts.h"
#include "checkpoints/checkpoint_browser.h"
#include "checkpoints/checkpoint_table_model.h"
#include "document/project_document.h"
#include "image_folder_fixture.h"
#include "layerforge/store/run_store.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/training_controller.h"
#include "training/training_panel.h"
#include "training/training_progress.h"

using namespace lf;
using namespace lf::ui;

class TestStudioDashboard : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));
    }

    void trainingFeedsChartsProgressAndTheCheckpointTable() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 2), dir_.filePath("dash.lfproj"));
        w.show();
        auto* panel = w.findChild<TrainingPanel*>();
        auto* charts = w.findChild<TrainingCharts*>();
        auto* browser = w.findChild<CheckpointBrowser*>();
        QVERIFY(panel && charts && browser);
        QCOMPARE(panel->chartsWidget(), charts);
        TrainingController* c = panel->controller();
        TrainingOptions o = c->options();
        o.logEvery = 1;
        o.eventIntervalMs = 0;
        c->setOptions(o);

        QSignalSpy finished(c, &TrainingController::finished);
        QVERIFY(c->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        // 60 images, batch 4: 15 steps an epoch, 2 epochs, every step reported.
        QCOMPARE(charts->pointCount("loss"), 30);
        QCOMPARE(charts->pointCount("accuracy"), 30);
        QCOMPARE(panel->progress()->bar()->value(), panel->progress()->bar()->maximum());
        // One checkpoint per epoch, listed by the browser (it refreshes on storeChanged).
        QTRY_COMPARE_WITH_TIMEOUT(browser->model()->rowCount(), 2, 5000);

        // Resume from the first epoch's checkpoint: the Train page takes over, the run keeps its
        // id, its stored curve up to step 15 comes back, and the second epoch is trained again.
        const qint64 run = c->runId();
        RunStore store(w.session()->storePath().toStdString(), false);
        std::vector<CheckpointInfo> ckpts = store.checkpoints(run);
        QCOMPARE(ckpts.size(), std::size_t(2));
        const CheckpointInfo& first = ckpts[0].step < ckpts[1].step ? ckpts[0] : ckpts[1];
        QCOMPARE(first.step, std::int64_t(15));
        w.workspaces()->setCurrentWidget(browser);
        Q_EMIT browser->resumeRequested(first.id);
        QCOMPARE(w.workspaces()->currentWidget(), panel);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 20000);
        QCOMPARE(finished[1][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QCOMPARE(c->runId(), run);
        QCOMPARE(charts->pointCount("loss"), 30);  // 15 stored + 15 new, none twice
    }
};

QTEST_MAIN(TestStudioDashboard)
#include "test_studio_dashboard.moc"
#include "run_status_text.h"
