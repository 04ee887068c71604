// The Checkpoints workspace over a run store generated with the engine API: a tiny model, two
// runs with different settings, checkpoints with different weights and metrics. Columns, sort
// and filter, Pin and Delete writing the store, Restore giving the session the checkpoint's
// weights (same predictions), Resume and Export signals, live refresh, the compare chart, the
// settings diff, and a damaged store.
#include <QAction>
#include <QBarSeries>
#include <QBarSet>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QValueAxis>
#include <QtTest>

#include "checkpoints/checkpoint_browser.h"
#include "checkpoints/checkpoint_table_model.h"
#include "checkpoints/compare_chart.h"
#include "checkpoints/settings_diff_view.h"
#include "document/model_stats.h"
#include "document/project_document.h"
#include "graph_builder.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"
#include "session/studio_session.h"
#include "synthetic_data.h"

using namespace lf;
using namespace lf::ui;

namespace {

Project tinyProject() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{4}}});
    auto d = b.add("Dense", {{"units", std::int64_t(3)}}, {in});
    b.add("Softmax", {}, {d});
    Project p;
    p.graph = b.graph;
    p.training.seed = 5;
    return p;
}

// A checkpoint whose weights are the model's initialisation from `seed`.
std::int64_t addCheckpoint(RunStore& store, std::int64_t run, std::int64_t step, std::uint64_t seed,
                           const std::string& metrics) {
    Model m(tinyProject().graph);
    m.init_weights(seed);
    auto opt = make_optimizer("SGD", {});
    opt->bind(m.weights().size());
    TrainState s;
    s.iterations = step;
    s.epoch = step / 10;
    return store.save_checkpoint(run, step, step / 10, metrics, encode_checkpoint(m, *opt, s), {.max_to_keep = 0});
}

std::vector<float> predictions(Model& m) {
    Trainer t(m, tinyProject().training);
    return t.predict(synthetic(16, 3));
}

}  // namespace

class TestCheckpointBrowser : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    ProjectDocument doc_;
    std::unique_ptr<StudioSession> session_;
    std::unique_ptr<CheckpointBrowser> browser_;
    std::int64_t first10_ = 0, first20_ = 0, second10_ = 0, run1_ = 0, run2_ = 0;

    std::string storePath() const { return session_->storePath().toStdString(); }
    bool waitRefreshed() {
        QSignalSpy spy(browser_.get(), &CheckpointBrowser::refreshed);
        return spy.wait(5000);
    }
    QString cell(qint64 id, const QString& header) const {
        CheckpointTableModel* m = browser_->model();
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, 0).data(CheckpointTableModel::IdRole).toLongLong() == id)
                return m->index(r, m->columnOf(header)).data().toString();
        return "<no row>";
    }
    qint64 proxyId(int row) const {
        return browser_->proxy()->index(row, 0).data(CheckpointTableModel::IdRole).toLongLong();
    }

private Q_SLOTS:
    void init() {
        doc_.reset(tinyProject(), dir_.filePath("tiny.lfproj"));
        session_ = std::make_unique<StudioSession>(&doc_);
        for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(session_->storePath() + suffix);
        {
            RunStore store(storePath());
            run1_ = store.create_run({.name = "first", .graph = R"({"nodes": []})",
                                      .settings = R"({"training": {"batch_size": 50}})"});
            run2_ = store.create_run({.name = "second", .graph = R"({"nodes": []})",
                                      .settings = R"({"training": {"batch_size": 64}})"});
            first10_ = addCheckpoint(store, run1_, 10, 101, R"({"loss": 0.9, "val_loss": 1.0})");
            first20_ = addCheckpoint(store, run1_, 20, 102, R"({"loss": 0.5, "val_loss": 0.6})");
            second10_ = addCheckpoint(store, run2_, 10, 103, R"({"loss": 0.7, "val_loss": 0.4})");
        }
        browser_ = std::make_unique<CheckpointBrowser>(session_.get());
        QVERIFY(waitRefreshed());
    }
    void cleanup() {
        browser_.reset();
        session_.reset();
    }

    void listsCheckpointsWithColumns() {
        CheckpointTableModel* m = browser_->model();
        QCOMPARE(m->rowCount(), 3);
        QStringList headers;
        for (int c = 0; c < m->columnCount(); ++c) headers << m->headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers, (QStringList{"Run", "Step", "Epoch", "loss", "val_loss", "Created", "Size", "Pinned", "Best"}));
        QCOMPARE(cell(first20_, "Run"), QString("#%1 first").arg(run1_));
        QCOMPARE(cell(first20_, "Step"), QString("20"));
        QCOMPARE(cell(first20_, "Epoch"), QString("2"));
        QCOMPARE(cell(first20_, "val_loss"), QString("0.6"));
        QCOMPARE(cell(first20_, "Best"), QString("best"));  // run 1's lowest val_loss
        QCOMPARE(cell(first10_, "Best"), QString());
        QCOMPARE(cell(second10_, "Best"), QString("best"));
        QCOMPARE(cell(first10_, "Pinned"), QString());
        RunStore store(storePath());
        QCOMPARE(cell(first10_, "Size"), formatBytes(store.checkpoints(run1_)[0].bytes));
        QVERIFY(!cell(first10_, "Created").isEmpty());
        QVERIFY(browser_->banner()->isHidden());
    }

    void sortAndFilter() {
        CheckpointTableModel* m = browser_->model();
        browser_->proxy()->sort(m->columnOf("val_loss"), Qt::AscendingOrder);
        QCOMPARE(proxyId(0), second10_);
        QCOMPARE(proxyId(1), first20_);
        QCOMPARE(proxyId(2), first10_);
        browser_->proxy()->sort(m->columnOf("Step"), Qt::DescendingOrder);
        QCOMPARE(browser_->proxy()->index(0, m->columnOf("Step")).data().toString(), QString("20"));
        browser_->setFilter("second");
        QCOMPARE(browser_->proxy()->rowCount(), 1);
        QCOMPARE(proxyId(0), second10_);
        browser_->setFilter("FIRST");  // case-insensitive
        QCOMPARE(browser_->proxy()->rowCount(), 2);
        browser_->setFilter("");
        QCOMPARE(browser_->proxy()->rowCount(), 3);
    }

    void pinAndDeleteChangeTheStore() {
        browser_->setPinned({first10_}, true);
        QVERIFY(waitRefreshed());
        QCOMPARE(cell(first10_, "Pinned"), QString("pinned"));
        QVERIFY(RunStore(storePath()).checkpoints(run1_)[0].pinned);

        browser_->deleteCheckpoints({first10_, first20_});  // the pinned one is refused
        QVERIFY(waitRefreshed());
        QCOMPARE(browser_->model()->rowCount(), 2);
        QVERIFY(browser_->model()->find(first10_));
        QVERIFY(!browser_->model()->find(first20_));
        QVERIFY2(browser_->banner()->text().contains("pinned"), qPrintable(browser_->banner()->text()));
        QCOMPARE(RunStore(storePath()).checkpoints(run1_).size(), std::size_t(1));

        browser_->selectCheckpoints({first10_});
        QCOMPARE(browser_->pinAction()->text(), QString("Unpin"));
        browser_->pinAction()->trigger();
        QVERIFY(waitRefreshed());
        QVERIFY(!RunStore(storePath()).checkpoints(run1_)[0].pinned);
    }

    void restoreGivesTheCheckpointsPredictions() {
        Model expected(tinyProject().graph);
        expected.init_weights(102);  // first20_'s weights
        const std::vector<float> want = predictions(expected);
        std::unique_ptr<Model> before = session_->makeModel();
        QVERIFY(predictions(*before) != want);

        QSignalSpy restored(browser_.get(), &CheckpointBrowser::restored);
        browser_->selectCheckpoints({first20_});
        browser_->restoreAction()->trigger();
        QVERIFY(restored.wait(5000));
        QCOMPARE(restored.at(0).at(0).toLongLong(), first20_);
        QCOMPARE(session_->weightsOrigin(), QString("run %1 ckpt-20").arg(run1_));
        QStringList skipped;
        std::unique_ptr<Model> after = session_->makeModel(&skipped);
        QVERIFY(skipped.isEmpty());
        QCOMPARE(predictions(*after), want);
        // Only the model's weights: no optimizer slots or training header in the session.
        QVERIFY(session_->weights().find("layerforge_checkpoint") == std::string::npos);
    }

    void resumeAndExportEmitTheId() {
        QSignalSpy resume(browser_.get(), &CheckpointBrowser::resumeRequested);
        QSignalSpy exported(browser_.get(), &CheckpointBrowser::exportRequested);
        browser_->selectCheckpoints({second10_});
        QVERIFY(browser_->resumeAction()->isEnabled());
        browser_->resumeAction()->trigger();
        browser_->exportAction()->trigger();
        QCOMPARE(resume.count(), 1);
        QCOMPARE(resume.at(0).at(0).toLongLong(), second10_);
        QCOMPARE(exported.count(), 1);
        QCOMPARE(exported.at(0).at(0).toLongLong(), second10_);
        browser_->selectCheckpoints({first10_, second10_});  // one checkpoint at a time
        QVERIFY(!browser_->resumeAction()->isEnabled());
        QVERIFY(browser_->compareAction()->isEnabled());
    }

    void newCheckpointAppearsOnRefresh() {
        browser_->refreshIfChanged();  // nothing changed: no read
        QSignalSpy none(browser_.get(), &CheckpointBrowser::refreshed);
        QVERIFY(!none.wait(300));
        {
            RunStore other(storePath());  // another writer, as the CLI would be
            addCheckpoint(other, run2_, 20, 104, R"({"loss": 0.3, "val_loss": 0.35, "accuracy": 0.9})");
        }
        browser_->refreshIfChanged();
        QVERIFY(waitRefreshed());
        QCOMPARE(browser_->model()->rowCount(), 4);
        QVERIFY(browser_->model()->metricNames().contains("accuracy"));

        // While visible, the poll notices a write by itself.
        browser_->setRefreshInterval(50);
        browser_->show();
        {
            RunStore other(storePath());
            addCheckpoint(other, run2_, 30, 105, R"({"loss": 0.2})");
        }
        QVERIFY(waitRefreshed());
        QCOMPARE(browser_->model()->rowCount(), 5);
    }

    void compareChartHasOneSetPerCheckpoint() {
        browser_->selectCheckpoints({first10_, first20_, second10_});
        browser_->compareAction()->trigger();
        QBarSeries* series = browser_->compareChart()->series();
        QCOMPARE(series->count(), 3);
        QCOMPARE(browser_->compareChart()->categories(), (QStringList{"loss", "val_loss"}));
        QCOMPARE(series->barSets()[1]->at(1), 0.6);  // first20_'s val_loss
        // Checkpoints of two runs: the settings diff shows those runs.
        QTreeWidget* diff = browser_->settingsDiff()->table();
        QCOMPARE(diff->topLevelItemCount(), 1);
        QCOMPARE(diff->topLevelItem(0)->text(0), QString("/settings/training/batch_size"));
        QCOMPARE(diff->topLevelItem(0)->text(1), QString("50"));
        QCOMPARE(diff->topLevelItem(0)->text(2), QString("64"));
        if (const QString shots = qEnvironmentVariable("LF_SCREENSHOT_DIR"); !shots.isEmpty()) {
            browser_->resize(1200, 760);
            browser_->show();
            QVERIFY(browser_->grab().save(QDir(shots).filePath("checkpoints.png")));
        }
    }

    // The learning rate (1e-3) on the accuracy scale was an invisible bar: it has its own axis.
    void compareChartGivesTheLearningRateItsOwnAxis() {
        CompareChart chart;
        std::vector<CheckpointRow> rows(2);
        rows[0].metrics = {{"accuracy", 0.8}, {"loss", 0.5}, {"lr", 0.001}};
        rows[1].metrics = {{"accuracy", 0.9}, {"loss", 0.3}, {"lr", 0.0005}};
        chart.setCheckpoints(rows);
        QCOMPARE(chart.categories(), (QStringList{"accuracy", "loss", "lr"}));
        QValueAxis* rate = chart.rateAxis();
        QVERIFY(rate);
        QCOMPARE(chart.chart()->axes(Qt::Vertical).size(), 2);
        QVERIFY(rate->alignment() == Qt::AlignRight);
        QVERIFY2(rate->max() < 0.01 && rate->max() >= 0.001, qPrintable(QString::number(rate->max())));
        QCOMPARE(chart.rateSeries()->barSets()[0]->at(2), 0.001);
        QCOMPARE(chart.series()->barSets()[0]->at(2), 0.0);  // not also drawn on the metric axis
        QCOMPARE(chart.series()->barSets()[1]->at(0), 0.9);
        rows[0].metrics = {{"loss", 0.5}};
        chart.setCheckpoints({rows[0]});
        QVERIFY(!chart.rateAxis());
    }

    void anotherProjectShowsItsOwnStore() {
        doc_.reset(tinyProject(), dir_.filePath("untrained.lfproj"));
        QVERIFY(waitRefreshed());
        QCOMPARE(browser_->model()->rowCount(), 0);
        QVERIFY2(browser_->banner()->text().startsWith("No checkpoints yet"), qPrintable(browser_->banner()->text()));
        doc_.reset(tinyProject(), dir_.filePath("tiny.lfproj"));
        QVERIFY(waitRefreshed());
        QCOMPARE(browser_->model()->rowCount(), 3);
    }

    void damagedStoreSaysSo() {
        browser_.reset();
        QFile::remove(session_->storePath() + "-wal");
        QFile::remove(session_->storePath() + "-shm");
        QFile f(session_->storePath());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(4096, 'x'));
        f.close();
        browser_ = std::make_unique<CheckpointBrowser>(session_.get());
        QSignalSpy failed(browser_.get(), &CheckpointBrowser::failed);
        QVERIFY(failed.wait(5000));
        QCOMPARE(browser_->model()->rowCount(), 0);
        QVERIFY2(browser_->banner()->text().contains("Cannot read the run store"), qPrintable(browser_->banner()->text()));
        QVERIFY(browser_->banner()->text().contains(session_->storePath()));
    }
};

QTEST_MAIN(TestCheckpointBrowser)
#include "test_checkpoint_browser.moc"
