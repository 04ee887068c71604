// The Train workspace: the controller trains a tiny model on a generated image folder on its
// background thread; events, progress, checkpoints, pause/resume/stop, weights into the
// session, failures reported without blocking the UI; the device gauge, the log dock and the
// error banner.
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "document/project_document.h"
#include "layerforge/devices/devices.h"
#include "layerforge/core/error.h"
#include "layerforge/store/run_store.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/device_gauge.h"
#include "training/error_banner.h"
#include "training/log_view.h"
#include "training/run_options_form.h"
#include "training/training_panel.h"
#include "training/training_progress.h"
#include "training/training_settings_form.h"
#include "image_folder_fixture.h"
#include "train_event_spy.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

class TestTraining : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString data_;

    // A document saved nowhere but named in the temporary folder: its store goes beside it.
    void setUp(ProjectDocument& doc, const QString& name, std::int64_t epochs, const QString& dataset = {}) {
        doc.reset(tinyImageProject(dataset.isEmpty() ? data_ : dataset, epochs), dir_.filePath(name + ".lfproj"));
    }

    static void fast(TrainingController& c) {
        TrainingOptions o = c.options();
        o.logEvery = 1;
        o.eventIntervalMs = 0;
        c.setOptions(o);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath("images");
        writeImageFolder(data_);
    }

    void trainsToTheEndWithCheckpointsAndWeights() {
        ProjectDocument doc;
        setUp(doc, "finish", 3);
        StudioSession session(&doc);
        TrainingController c(&session);
        fast(c);
        QSignalSpy started(&c, &TrainingController::started), events(&c, &TrainingController::trainEvent),
            ckpts(&c, &TrainingController::checkpointSaved), finished(&c, &TrainingController::finished),
            weights(&session, &StudioSession::weightsChanged), store(&session, &StudioSession::storeChanged),
            lines(&c, &TrainingController::logLine);
        QVERIFY(c.start());
        QCOMPARE(c.state(), TrainingController::State::Running);
        QVERIFY(!c.start());  // one run at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 8000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QCOMPARE(c.state(), TrainingController::State::Idle);
        QCOMPARE(started.size(), 1);
        const qint64 run = started[0][0].toLongLong();
        QVERIFY(run > 0);
        QCOMPARE(countKind(events, EventKind::RunStarted), 1);
        QCOMPARE(countKind(events, EventKind::EpochEnd), 3);
        QVERIFY(countKind(events, EventKind::Step) >= 3);
        // Steps advance and the last event reached the end: 60 images / 4 = 15 steps per epoch.
        std::int64_t last = 0;
        for (const auto& a : events) {
            const auto e = a.at(0).value<lf::TrainEvent>();
            QVERIFY(e.step >= last);
            last = e.step;
        }
        QCOMPARE(last, std::int64_t(45));
        QVERIFY(ckpts.size() >= 3);  // one per epoch
        RunStore runs(session.storePath().toStdString(), false);
        QCOMPARE(runs.run(run).status, lf::RunStatus::Finished);
        const auto saved = runs.checkpoints(run);
        QVERIFY(!saved.empty());
        QCOMPARE(saved.back().step, std::int64_t(45));
        QVERIFY(store.size() >= ckpts.size());
        // The trained weights are the session's now and differ from a fresh initialisation.
        QCOMPARE(weights.size(), 1);
        QVERIFY(session.hasWeights());
        QCOMPARE(session.weightsOrigin(), QString("run %1").arg(run));
        auto trained = session.makeModel();
        Model fresh(doc.graph());
        fresh.init_weights(std::uint64_t(doc.project().training.seed));
        QVERIFY(trained->weights() != fresh.weights());
        // The first scan's class list went into the document, as an undoable edit.
        QCOMPARE(doc.project().dataset.classes, (std::vector<std::string>{"dark", "light", "mid"}));
        QVERIFY(doc.isModified());
        bool sawWeightsLine = false;
        for (const auto& a : lines) sawWeightsLine |= a.at(0).toString().startsWith("weights saved to");
        QVERIFY(sawWeightsLine);
    }

    void pauseResumeAndStopFromThePanel() {
        ProjectDocument doc;
        setUp(doc, "pause", 100000);  // far longer than the test: it ends by Stop
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        TrainingController& c = *panel.controller();
        fast(c);
        QSignalSpy events(&c, &TrainingController::trainEvent), finished(&c, &TrainingController::finished),
            states(&c, &TrainingController::stateChanged);
        QVERIFY(panel.startButton()->isEnabled() && !panel.pauseButton()->isEnabled());
        panel.startButton()->click();
        QVERIFY(!panel.startButton()->isEnabled() && panel.pauseButton()->isEnabled() && panel.stopButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(countKind(events, EventKind::Step) >= 5, 5000);
        QVERIFY(panel.progress()->bar()->value() > 0);

        panel.pauseButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(c.state(), TrainingController::State::Paused, 3000);
        QVERIFY(panel.resumeButton()->isEnabled() && !panel.pauseButton()->isEnabled());
        const int stepsAtPause = countKind(events, EventKind::Step);
        const int barAtPause = panel.progress()->bar()->value();
        QTest::qWait(600);  // the engine thread sits in its pause: no steps, the UI keeps running
        QCOMPARE(countKind(events, EventKind::Step), stepsAtPause);
        QCOMPARE(panel.progress()->bar()->value(), barAtPause);

        panel.resumeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(countKind(events, EventKind::Step) > stepsAtPause + 3, 3000);
        QCOMPARE(c.state(), TrainingController::State::Running);
        QVERIFY(panel.progress()->bar()->value() > barAtPause);

        panel.stopButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Stopped);
        QCOMPARE(countKind(events, EventKind::Stopped), 1);
        QVERIFY(panel.startButton()->isEnabled() && !panel.stopButton()->isEnabled());
        RunStore runs(session.storePath().toStdString(), false);
        QCOMPARE(runs.run(c.runId()).status, lf::RunStatus::Stopped);
        QVERIFY(!runs.checkpoints(c.runId()).empty());  // the end of a stopped run checkpoints
        QVERIFY(session.hasWeights());
    }

    void anUnsavedProjectTrainsIntoTheUntitledStore() {
        ProjectDocument doc;
        doc.reset(tinyImageProject(data_, 1), QString());
        StudioSession session(&doc);
        QVERIFY(session.storePath().endsWith("untitled.lfruns"));
        TrainingController c(&session);
        fast(c);
        QSignalSpy finished(&c, &TrainingController::finished);
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 8000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        RunStore runs(session.storePath().toStdString(), false);
        QCOMPARE(runs.run(c.runId()).status, lf::RunStatus::Finished);
        QVERIFY(doc.fileName().isEmpty());  // training did not save the project anywhere
    }

    void closingDuringARunStopsItPromptly() {
        ProjectDocument doc;
        setUp(doc, "closing", 100000);
        StudioSession session(&doc);
        auto* c = new TrainingController(&session);
        fast(*c);
        QSignalSpy events(c, &TrainingController::trainEvent);
        QVERIFY(c->start());
        QTRY_VERIFY_WITH_TIMEOUT(countKind(events, EventKind::Step) >= 2, 5000);
        const qint64 run = c->runId();
        QElapsedTimer t;
        t.start();
        delete c;  // what closing the window does
        QVERIFY2(t.elapsed() < 2000, "the destructor waited too long for the run");
        RunStore runs(session.storePath().toStdString(), false);
        QCOMPARE(runs.run(run).status, lf::RunStatus::Stopped);
    }

    void resumeFromACheckpointContinuesTheRun() {
        ProjectDocument doc;
        setUp(doc, "resume", 2);
        StudioSession session(&doc);
        TrainingController c(&session);
        fast(c);
        QSignalSpy finished(&c, &TrainingController::finished);
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 8000);
        RunStore runs(session.storePath().toStdString(), false);
        const CheckpointInfo first = runs.checkpoints(c.runId()).front();  // after epoch 1
        QCOMPARE(first.step, std::int64_t(15));
        const qint64 run = c.runId();
        QSignalSpy events(&c, &TrainingController::trainEvent);
        QVERIFY(c.resumeFrom(first.id));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 8000);
        QCOMPARE(finished[1][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QCOMPARE(c.runId(), run);  // the same run, not a new one
        QCOMPARE(runs.runs().size(), std::size_t(1));
        QCOMPARE(countKind(events, EventKind::EpochEnd), 1);  // only epoch 2 was left
        QCOMPARE(events.last().at(0).value<lf::TrainEvent>().step, std::int64_t(30));
    }

    void failuresEndTheRunAndTheWindowStaysUsable() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        ProjectDocument& doc = *w.document();
        setUp(doc, "fail", 2, dir_.filePath("no-such-folder"));
        auto* panel = w.findChild<TrainingPanel*>();
        QVERIFY(panel);
        TrainingController& c = *panel->controller();
        fast(c);
        auto* banner = w.findChild<ErrorBanner*>();
        auto* log = w.findChild<LogView*>();
        QVERIFY(banner && log);
        QVERIFY(banner->isHidden());
        QSignalSpy failed(&c, &TrainingController::failed), finished(&c, &TrainingController::finished);
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Failed);
        QCOMPARE(failed.size(), 1);
        const QString message = failed[0][0].toString();
        QVERIFY2(message.contains("no-such-folder"), qPrintable(message));
        QVERIFY(!banner->isHidden());
        QVERIFY(banner->message().contains("no-such-folder"));
        QVERIFY(log->toPlainText().contains("no-such-folder"));
        QCOMPARE(c.state(), TrainingController::State::Idle);
        QVERIFY(panel->startButton()->isEnabled());
        QVERIFY(!w.session()->hasWeights());

        // A learning rate that overflows the weights: the loss turns NaN or infinite.
        TrainingConfig t = doc.project().training;
        t.optimizer.params["learning_rate"] = 1e38;
        Project p = tinyImageProject(data_, 2);
        p.training = t;
        doc.reset(p, dir_.filePath("nan.lfproj"));
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 5000);
        QCOMPARE(finished[1][0].value<lf::RunStatus>(), lf::RunStatus::Failed);
        QVERIFY2(failed.last()[0].toString().contains("loss became"), qPrintable(failed.last()[0].toString()));
        QVERIFY(banner->message().contains("loss became"));
        RunStore runs(w.session()->storePath().toStdString(), false);
        QCOMPARE(runs.run(c.runId()).status, lf::RunStatus::Failed);

        // Fixed, the same window trains again; the banner goes when the new run starts.
        p.training.optimizer.params["learning_rate"] = 0.05;
        doc.reset(p, dir_.filePath("nan.lfproj"));
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 8000);
        QCOMPARE(finished[2][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QVERIFY(banner->isHidden());
        QVERIFY(w.session()->hasWeights());
    }

    void trainWorkspaceAndLogDockInTheWindow() {
        MainWindow w(dir_.filePath("recovery2.lfproj"), 3600000);
        QStringList tabs;
        for (int i = 0; i < w.workspaces()->count(); ++i) tabs << w.workspaces()->tabText(i);
        QVERIFY(tabs.contains("Train"));
        auto* dock = w.findChild<QDockWidget*>("logDock");
        QVERIFY(dock);
        QCOMPARE(w.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
        w.show();
        w.workspaces()->setCurrentIndex(int(tabs.indexOf("Train")));
        QVERIFY(dock->isVisible());  // the log stays on every workspace
        auto* panel = w.findChild<TrainingPanel*>();
        auto* charts = new QLabel("charts");
        panel->setChartsWidget(charts);
        QCOMPARE(panel->chartsWidget(), charts);
        QVERIFY(!panel->findChild<QLabel*>("chartsPlaceholder"));
    }

    void settingsEditsAreUndoable() {
        ProjectDocument doc;
        loadTemplate(doc, "fashion_mlp.lfproj");
        TrainingSettingsForm form(&doc);
        const std::int64_t epochs = doc.project().training.epochs;
        form.epochs()->setValue(int(epochs) + 3);
        QCOMPARE(doc.project().training.epochs, epochs + 3);
        form.earlyStopping()->setChecked(true);
        form.earlyPatience()->setValue(2);
        QCOMPARE(doc.project().training.callbacks.back().type, std::string("EarlyStopping"));
        QCOMPARE(std::get<std::int64_t>(doc.project().training.callbacks.back().params.at("patience")), std::int64_t(2));
        doc.undoStack()->undo();  // the edits merged into one step
        QCOMPARE(doc.project().training.epochs, epochs);
        QCOMPARE(form.epochs()->value(), int(epochs));
        QVERIFY(!form.earlyStopping()->isChecked());
        form.optimizer()->setCurrentText("SGD");
        QCOMPARE(doc.project().training.optimizer.type, std::string("SGD"));
    }

    void runOptionsListTheDevicesAndReachTheController() {
        ProjectDocument doc;
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        RunOptionsForm* o = panel.runOptions();
        QCOMPARE(o->device()->count(), 1);
        QCOMPARE(o->device()->itemData(0).toString(), QString("cpu"));
        // The registry's reason (no driver here, or no module in a build without the toolkit).
        const std::string reason = list_devices().gpu_unavailable;
        QVERIFY(!reason.empty());
        QCOMPARE(o->gpuNote(), QString("GPU: %1").arg(QString::fromStdString(reason)));
        o->everySteps()->setValue(7);
        o->keep()->setValue(2);
        QCOMPARE(panel.controller()->options().checkpointEverySteps, qint64(7));
        QCOMPARE(panel.controller()->options().keep, qint64(2));
    }

    void progressShowsEpochStepEtaAndTheDataBoundHint() {
        TrainingProgress progress;
        lf::TrainEvent e;
        e.kind = EventKind::Step;
        e.epoch = 2, e.epochs = 5, e.step = 15, e.steps_per_epoch = 10, e.total_steps = 50;
        e.eta_seconds = 65, e.images_per_second = 812, e.data_wait_fraction = 0.05;
        progress.showTrainEvent(e);
        QCOMPARE(progress.bar()->maximum(), 50);
        QCOMPARE(progress.bar()->value(), 15);
        QCOMPARE(progress.statusText(), QString("epoch 2/5  step 5/10  ETA 1:05  812 img/s"));
        QVERIFY(!progress.dataBound());
        e.data_wait_fraction = 0.4;
        progress.showTrainEvent(e);
        QVERIFY(progress.dataBound());
        progress.showEnd(lf::RunStatus::Stopped, "stopped by request at epoch 2, step 15");
        QVERIFY(!progress.dataBound());
        QCOMPARE(progress.statusText(), QString("stopped by request at epoch 2, step 15"));
    }

    void deviceApiAndGauge() {
        const DeviceList devices = list_devices();
        QCOMPARE(devices.devices.size(), std::size_t(1));
        QCOMPARE(devices.devices[0].id, std::string("cpu"));
        QVERIFY(!devices.devices[0].name.empty());
        QVERIFY(devices.devices[0].total_memory > 0);
        QVERIFY(!devices.gpu_unavailable.empty());
        const DeviceMemory m = device_memory("cpu");
        QVERIFY(m.process > 0 && m.process < m.total);
        QVERIFY(m.used > 0 && m.used <= m.total);
        QVERIFY_THROWS_EXCEPTION(lf::Error, device_memory("cuda:0"));

        DeviceGauge gauge;
        QVERIFY(gauge.interval() <= 500);  // at least twice a second
        const int first = gauge.updates();
        QTest::qWait(1100);
        QVERIFY(gauge.updates() >= first + 2);
        {
            Model big(tinyImageProject(data_, 1).graph);  // the engine's account grows while it lives
            gauge.refresh();
            QVERIFY(gauge.reading().engine > 0);
        }
        gauge.refresh();
        QVERIFY(gauge.peaks().engine >= gauge.reading().engine);
        QVERIFY(gauge.peaks().process >= gauge.reading().process);
    }
};

QTEST_MAIN(TestTraining)
#include "test_training.moc"
#include "run_status_text.h"
