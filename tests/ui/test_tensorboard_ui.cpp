// TensorBoard in the studio: the Train page's log folder (off by default, reaching the run,
// whose files then hold the store's scalars) and File > Import TensorBoard Logs (off the UI
// thread into the project's store; the report; the imported run overlaid by the charts).
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "charts/training_charts.h"
#include "checkpoints/tensorboard_import.h"
#include "document/project_document.h"
#include "image_folder_fixture.h"
#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/event_file.h"
#include "layerforge/tensorboard/log_folder.h"
#include "layerforge/tensorboard/metric_tags.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/run_options_form.h"
#include "training/training_controller.h"
#include "training/training_panel.h"

using namespace lf;
using namespace lf::ui;

namespace {

using Point = std::tuple<std::string, std::string, std::int64_t, std::int64_t, float>;

std::vector<Point> points(const std::vector<MetricRow>& rows) {
    std::vector<Point> out;
    for (const MetricRow& r : rows)
        if (r.split != "test" && !(r.split == "train" && r.name == "lr"))
            out.emplace_back(r.split, r.name, r.step, r.epoch, float(r.value));
    std::sort(out.begin(), out.end());
    return out;
}

QAction* findAction(QMenuBar* bar, const QString& text) {
    for (QAction* a : bar->findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

}  // namespace

class TestTensorBoardUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));
    }

    void logFolderIsOffByDefaultAndReachesTheRun() {
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 2), dir_.filePath("live.lfproj"));
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        RunOptionsForm* form = panel.runOptions();
        QVERIFY(form->tensorboardDir()->text().isEmpty());
        QVERIFY(panel.controller()->options().tensorboardDir.isEmpty());
        QCOMPARE(form->tensorboardBrowse()->text(), QString("Browse…"));
        const QString logs = dir_.filePath("tb_live");
        form->tensorboardDir()->setText(logs);
        QCOMPARE(panel.controller()->options().tensorboardDir, logs);

        TrainingController& c = *panel.controller();
        TrainingOptions o = c.options();
        o.eventIntervalMs = 0;
        c.setOptions(o);
        QSignalSpy finished(&c, &TrainingController::finished), lines(&c, &TrainingController::logLine);
        QVERIFY(c.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        bool named = false;
        for (const auto& a : lines) named |= a.at(0).toString().startsWith("TensorBoard logs in " + logs);
        QVERIFY(named);
        const tensorboard::LogFolder f = tensorboard::read_log_folder(logs.toStdString());
        QVERIFY(f.damage.empty());
        QCOMPARE(f.runs.size(), std::size_t(1));
        RunStore store(session.storePath().toStdString(), false);
        QVERIFY(points(tensorboard::rows_from_log(f.runs[0], 1)) == points(store.metrics(1)));
        QVERIFY(!points(store.metrics(1)).empty());
    }

    void importActionFillsTheStoreOffTheUiThread() {
        // a Keras-layout log folder: 3 epochs, 5 batches each
        const std::filesystem::path logs = dir_.filePath("keras_logs").toStdString();
        {
            tensorboard::EventFileWriter train((logs / "fit" / "train").string()),
                val((logs / "fit" / "validation").string());
            for (int s = 1; s <= 15; ++s) train.add_scalar("batch_loss", s, 1.7e9 + s, 2.0 / s);
            for (int k = 0; k < 3; ++k) {
                train.add_scalar("epoch_loss", k, 1.7e9 + 5 * (k + 1), 1.0 / (k + 1));
                val.add_scalar("epoch_loss", k, 1.7e9 + 5 * (k + 1), 1.5 / (k + 1));
            }
            train.flush();
            val.flush();
        }
        MainWindow window(dir_.filePath("recovery.json"));
        QVERIFY(window.saveTo(dir_.filePath("importing.lfproj")));
        QAction* action = findAction(window.menuBar(), "Import &TensorBoard Logs…");
        QVERIFY(action);
        QSignalSpy stores(window.session(), &StudioSession::storeChanged);
        QSignalSpy done(window.tensorboardImport(), &TensorBoardImport::finished);
        QVERIFY(window.importTensorBoardLogs(QString::fromStdString(logs.string())));
        QVERIFY(window.tensorboardImport()->busy());
        QVERIFY(!window.importTensorBoardLogs(QString::fromStdString(logs.string())));  // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 10000);
        const auto report = done[0][0].value<TensorBoardImportReport>();
        QCOMPARE(report.runs.size(), 1);
        QCOMPARE(report.points, qint64(21));
        QVERIFY(stores.size() >= 1);
        auto* box = window.findChild<QMessageBox*>("tensorboardImportReport");
        QVERIFY(box && box->isVisible() && !box->isModal());
        QVERIFY2(box->text().contains("Imported 1 run"), qPrintable(box->text()));

        RunStore store(window.session()->storePath().toStdString(), false);
        const RunInfo run = store.run(report.runs[0]);
        QCOMPARE(run.name, std::string("fit"));
        QVERIFY(run.source.rfind("tensorboard:", 0) == 0);
        QVERIFY(run.status == RunStatus::Finished);
        QCOMPARE(store.metrics(run.id, "val").size(), std::size_t(3));

        // overlaid by the charts like a run trained here
        auto* charts = window.findChild<TrainingCharts*>();
        QVERIFY(charts);
        QVERIFY(charts->addOverlay(run.id));
        QCOMPARE(charts->pointCount(QString("run%1/loss").arg(run.id)), 15);
        QCOMPARE(charts->pointCount(QString("run%1/val_loss").arg(run.id)), 3);

        // again: nothing new, said so in a warning that does not block
        box->close();
        QVERIFY(window.importTensorBoardLogs(QString::fromStdString(logs.string())));
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 10000);
        auto* again = window.findChild<QMessageBox*>("tensorboardImportReport");
        QVERIFY(again && again->icon() == QMessageBox::Warning && !again->isModal());
        QVERIFY2(again->text().contains("already imported"), qPrintable(again->text()));
    }
};

QTEST_MAIN(TestTensorBoardUi)
#include "test_tensorboard_ui.moc"
