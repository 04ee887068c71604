// The Runs workspace over a run store generated with the engine API: five runs with different
// learning rates, optimizers and batch sizes (one imported, one training now in this process,
// one 30,000 steps long). Columns (the settings that differ, final and best metrics), sort,
// filter, in-place edits of note, tags and star written to the store, delete refusing the
// running run, the overlay (levels zoomed out, rows zoomed in), the parallel-coordinates and
// scatter data (axes, values, a click selecting its run) and the live refresh.
#include <QAction>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/qcustomplot_include.h"
#include "document/project_document.h"
#include "explorer/hyperparameter_scatter.h"
#include "explorer/parallel_coordinates.h"
#include "explorer/run_overlay.h"
#include "explorer/run_table_model.h"
#include "explorer/runs_explorer.h"
#include "layerforge/store/run_store.h"
#include "session/studio_session.h"

using namespace lf;
using namespace lf::ui;

namespace {

std::string settings(double rate, const char* optimizer, int batch) {
    return "{\"training\": {\"epochs\": 3, \"learning_rate\": " + std::to_string(rate) + ", \"optimizer\": \"" +
           optimizer + "\", \"batch_size\": " + std::to_string(batch) + "}}";
}

// Per step a training loss; per epoch (every 100 steps) epoch and validation rows.
std::vector<MetricRow> rows(std::int64_t run, std::int64_t steps, double valLoss) {
    std::vector<MetricRow> out;
    for (std::int64_t s = 1; s <= steps; ++s) {
        out.push_back({run, s, 1 + (s - 1) / 100, "train", "loss", 1.0 / double(s) + double(s % 7) * 0.01, 0});
        if (s % 100 == 0) {
            out.push_back({run, s, s / 100, "epoch", "loss", 1.0 / double(s), 0});
            out.push_back({run, s, s / 100, "val", "loss", valLoss + 0.5 / double(s), 0});
        }
    }
    return out;
}

}  // namespace

class TestRunsExplorer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ProjectDocument doc_;
    std::unique_ptr<StudioSession> session_;
    std::unique_ptr<RunsExplorer> explorer_;
    std::int64_t slow_ = 0, fast_ = 0, keras_ = 0, live_ = 0, long_ = 0;

    std::string storePath() const { return session_->storePath().toStdString(); }
    bool waitRefreshed() {
        QSignalSpy spy(explorer_.get(), &RunsExplorer::refreshed);
        return spy.wait(5000);
    }
    RunTableModel* model() const { return explorer_->model(); }
    QModelIndex index(qint64 id, const QString& header) const {
        for (int r = 0; r < model()->rowCount(); ++r)
            if (model()->index(r, 0).data(RunTableModel::IdRole).toLongLong() == id)
                return model()->index(r, model()->columnOf(header));
        return {};
    }
    QString cell(qint64 id, const QString& header) const { return index(id, header).data().toString(); }
    QList<qint64> proxyOrder() const {
        QList<qint64> ids;
        for (int r = 0; r < explorer_->proxy()->rowCount(); ++r)
            ids.append(explorer_->proxy()->index(r, 0).data(RunTableModel::IdRole).toLongLong());
        return ids;
    }
    // Writes through the model, then waits until the explorer's write reached the store.
    void edit(qint64 id, const QString& header, const QVariant& value, int role = Qt::EditRole) {
        QSignalSpy written(explorer_.get(), &RunsExplorer::written);
        QVERIFY(model()->setData(index(id, header), value, role));
        QVERIFY(written.wait(5000));
    }

private Q_SLOTS:
    void init() {
        Project p;
        doc_.reset(p, dir_.filePath("runs.lfproj"));
        session_ = std::make_unique<StudioSession>(&doc_);
        for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(session_->storePath() + suffix);
        {
            RunStore store(storePath());
            auto finished = [&](RunInfo r, std::int64_t steps, double val) {
                const std::int64_t id = store.create_run(r);
                store.append_metrics(rows(id, steps, val));
                store.set_status(id, RunStatus::Finished);
                return id;
            };
            slow_ = finished({.name = "slow", .graph = "{}", .settings = settings(0.0001, "SGD", 32), .tags = {"baseline"}}, 300, 0.6);
            fast_ = finished({.name = "fast", .graph = "{}", .settings = settings(0.01, "Adam", 64), .notes = "too fast?"}, 300, 0.3);
            keras_ = finished({.name = "keras", .graph = "{}", .settings = settings(0.001, "Adam", 32), .source = "tensorboard:/logs/k"}, 200, 0.4);
            long_ = finished({.name = "long", .graph = "{}", .settings = settings(0.001, "SGD", 64)}, 30000, 0.5);
            live_ = store.create_run({.name = "live", .graph = "{}", .settings = settings(0.003, "Adam", 32)});
            store.append_metrics(rows(live_, 100, 0.7));
        }
        explorer_ = std::make_unique<RunsExplorer>(session_.get());
        explorer_->resize(1200, 800);
        QVERIFY(waitRefreshed());
    }
    void cleanup() {
        explorer_.reset();
        session_.reset();
    }

    void columnsShowTheSettingsThatDifferAndTheMetrics() {
        QCOMPARE(model()->rowCount(), 5);
        QStringList headers;
        for (int c = 0; c < model()->columnCount(); ++c) headers << model()->headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers, (QStringList{"★", "Run", "Name", "Status", "Started", "Duration", "batch_size",
                                       "learning_rate", "optimizer", "loss (final)", "val_loss (final)",
                                       "loss (best)", "val_loss (best)", "Tags", "Note"}));  // epochs: the same in all
        QCOMPARE(cell(fast_, "optimizer"), QString("Adam"));
        QCOMPARE(cell(fast_, "batch_size"), QString("64"));
        QCOMPARE(cell(keras_, "Status"), QString("finished (imported)"));
        QVERIFY(index(keras_, "Status").data(Qt::ToolTipRole).toString().contains("tensorboard:/logs/k"));
        QCOMPARE(cell(live_, "Status"), QString("running"));
        QCOMPARE(cell(slow_, "Tags"), QString("baseline"));
        QCOMPARE(cell(fast_, "Note"), QString("too fast?"));
        QCOMPARE(cell(fast_, "val_loss (final)"), QString::number(0.3 + 0.5 / 300, 'g', 5));
        QCOMPARE(cell(fast_, "val_loss (best)"), QString::number(0.3 + 0.5 / 300, 'g', 5));
        QCOMPARE(cell(slow_, "loss (best)"), QString::number(1.0 / 300, 'g', 5));
        QCOMPARE(index(slow_, "★").data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
        QVERIFY(!cell(slow_, "Started").isEmpty() && !cell(slow_, "Duration").isEmpty());
        QVERIFY(explorer_->banner()->isHidden());
    }

    void sortsNumericallyAndFilters() {
        explorer_->proxy()->sort(model()->columnOf("val_loss (best)"), Qt::AscendingOrder);
        QCOMPARE(proxyOrder(), (QList<qint64>{fast_, keras_, long_, slow_, live_}));
        explorer_->proxy()->sort(model()->columnOf("learning_rate"), Qt::DescendingOrder);
        QCOMPARE(proxyOrder().front(), fast_);  // 0.01 > 0.003 > 0.001 (a text sort puts 0.01 last)
        QCOMPARE(proxyOrder().back(), slow_);
        explorer_->setFilter("BASELINE");  // a tag, any case
        QCOMPARE(proxyOrder(), QList<qint64>{slow_});
        explorer_->setFilter("too fast");  // a note
        QCOMPARE(proxyOrder(), QList<qint64>{fast_});
        explorer_->setFilter("imported");  // the status text of an imported run
        QCOMPARE(proxyOrder(), QList<qint64>{keras_});
        explorer_->setFilter("running");
        QCOMPARE(proxyOrder(), QList<qint64>{live_});
        explorer_->setFilter("");
        QCOMPARE(explorer_->proxy()->rowCount(), 5);
    }

    void editsInPlaceAreWrittenToTheStore() {
        edit(slow_, "Note", "the reference");
        edit(slow_, "Tags", "zeta, alpha,, zeta");
        edit(fast_, "★", Qt::Checked, Qt::CheckStateRole);
        RunStore store(storePath(), false);
        QCOMPARE(store.run(slow_).notes, std::string("the reference"));
        QCOMPARE(store.run(slow_).tags, (std::vector<std::string>{"alpha", "zeta"}));
        QVERIFY(store.run(fast_).starred);
        QVERIFY(waitRefreshed());  // the store changed: the table is read again
        QCOMPARE(cell(slow_, "Tags"), QString("alpha, zeta"));
        QCOMPARE(index(fast_, "★").data(Qt::CheckStateRole).toInt(), int(Qt::Checked));

        edit(slow_, "Tags", QString(101, 'x'));  // refused by the store: said, and the table reverts
        QVERIFY(explorer_->banner()->text().contains("1 to 100 characters"));
        QTRY_COMPARE(cell(slow_, "Tags"), QString("alpha, zeta"));

        explorer_->selectRuns({slow_, keras_});
        QVERIFY(explorer_->starAction()->isEnabled());
        QSignalSpy written(explorer_.get(), &RunsExplorer::written);
        explorer_->addTags(explorer_->selectedRuns(), {"compare"});
        QVERIFY(written.wait(5000));
        QCOMPARE(store.run(keras_).tags, std::vector<std::string>{"compare"});
        QCOMPARE(store.run(slow_).tags, (std::vector<std::string>{"alpha", "compare", "zeta"}));
    }

    void deleteRefusesTheRunningRun() {
        QSignalSpy written(explorer_.get(), &RunsExplorer::written);
        explorer_->deleteRuns({live_, keras_});
        QVERIFY(written.wait(5000));
        QVERIFY2(explorer_->banner()->text().contains("(live) is training now"), qPrintable(explorer_->banner()->text()));
        RunStore store(storePath(), false);
        QCOMPARE(store.run(live_).name, std::string("live"));
        QVERIFY_THROWS_EXCEPTION(Error, store.run(keras_));
        QTRY_COMPARE(model()->rowCount(), 4);
    }

    void overlayReadsLevelsZoomedOutAndRowsZoomedIn() {
        RunOverlay* overlay = explorer_->overlay();
        QSignalSpy drawn(overlay, &RunOverlay::drawn);
        QVERIFY(overlay->hint()->isVisibleTo(overlay) && !overlay->plot()->isVisibleTo(overlay));  // nothing selected
        explorer_->selectRuns({slow_, long_});
        QTRY_VERIFY(drawn.count() >= 1 && overlay->runs() == (QList<qint64>{long_, slow_}));  // table order: newest first
        QVERIFY(!overlay->hint()->isVisibleTo(overlay) && overlay->plot()->isVisibleTo(overlay));
        QTRY_VERIFY(overlay->pointCount(long_) > 0);
        QCOMPARE(overlay->metricBox()->currentData().toString(), QString("train/loss"));
        QVERIFY(!overlay->drawnFromLevels(slow_));  // 300 rows: read whole
        QCOMPARE(overlay->pointCount(slow_), std::size_t(300));
        QVERIFY(overlay->drawnFromLevels(long_));
        QVERIFY(overlay->pointCount(long_) <= 62);  // 31 levels (steps 1..30000), a min and a max each
        QVERIFY(!overlay->plot()->drawnPoints(QString("run%1").arg(long_)).isEmpty());

        drawn.clear();
        overlay->plot()->customPlot()->xAxis->setRange(10000, 12000);
        overlay->plot()->setFollowing(false);  // as a zoom does: the view changed
        QVERIFY(drawn.wait(5000));
        // Rows of [8000, 14999] (the window widened by its width each side) and 24 levels outside.
        QVERIFY2(overlay->pointCount(long_) >= 7000 && overlay->pointCount(long_) <= 7000 + 48,
                 qPrintable(QString::number(overlay->pointCount(long_))));
        drawn.clear();
        overlay->plot()->setFollowing(true);  // a double-click: back to the overview
        QVERIFY(drawn.wait(5000));
        QVERIFY(overlay->pointCount(long_) <= 62);
    }

    void parallelCoordinatesAndScatterData() {
        ParallelCoordinates* pc = explorer_->parallel();
        QCOMPARE(pc->metricBox()->currentData().toStringList(), (QStringList{"val_loss", "best"}));
        const HyperData& d = pc->data();
        QCOMPARE(d.axes.size(), std::size_t(3));
        QCOMPARE(d.axes[1].title, QString("learning_rate"));
        QVERIFY(!d.axes[1].categorical && d.axes[1].log);  // 1e-4 .. 1e-2
        QVERIFY(!d.axes[0].categorical && !d.axes[0].log);  // 32, 64
        QVERIFY(d.axes[2].categorical);
        QCOMPARE(d.axes[2].categories, (QStringList{"Adam", "SGD"}));
        QCOMPARE(d.points.size(), std::size_t(5));
        const HyperPoint& slow = d.points[std::size_t(d.indexOf(slow_))];
        QCOMPARE(slow.values[2], 1.0);  // SGD
        QCOMPARE(slow.values[1], 0.0001);
        QCOMPARE(d.axes[1].normalized(0.0001), 0.0);
        QCOMPARE(d.axes[1].normalized(0.01), 1.0);
        QCOMPARE(d.axes[1].normalized(0.001), 0.5);
        QCOMPARE(slow.metric, 0.6 + 0.5 / 300);
        QVERIFY(pc->lineOf(fast_));
        QCOMPARE(pc->runOf(pc->lineOf(fast_)), qint64(fast_));

        HyperparameterScatter* sc = explorer_->scatter();
        QCOMPARE(sc->settingBox()->currentData().toString(), QString("/settings/training/learning_rate"));
        QCOMPARE(sc->pointOf(fast_), QPointF(0.01, 0.3 + 0.5 / 300));
        sc->settingBox()->setCurrentIndex(sc->settingBox()->findData("/settings/training/optimizer"));
        QCOMPARE(sc->pointOf(fast_).x(), 0.0);  // Adam, the first category

        // A click on a point selects its run in the table.
        explorer_->show();
        explorer_->details()->setCurrentWidget(sc);
        QVERIFY(QTest::qWaitForWindowExposed(explorer_.get()));
        sc->customPlot()->replot();
        const QPointF at = sc->pointOf(slow_);
        const QPoint pixel(int(sc->customPlot()->xAxis->coordToPixel(at.x())), int(sc->customPlot()->yAxis->coordToPixel(at.y())));
        QTest::mouseClick(sc->customPlot(), Qt::LeftButton, {}, pixel);
        QTRY_COMPARE(explorer_->selectedRuns(), QList<qint64>{slow_});
        // The same for a line of the parallel coordinates, through its click signal.
        Q_EMIT pc->customPlot()->plottableClick(pc->lineOf(fast_), 0, nullptr);
        QCOMPARE(explorer_->selectedRuns(), QList<qint64>{fast_});
    }

    void refreshesWhileARunTrains() {
        explorer_->setRefreshInterval(50);
        explorer_->show();
        QVERIFY(QTest::qWaitForWindowExposed(explorer_.get()));
        // The fixed columns fit what they hold, the others their titles; a width the user set
    // survives the refresh.
        QHeaderView* header = explorer_->view()->horizontalHeader();
        QVERIFY(header->sectionSize(RunTableModel::Star) < header->defaultSectionSize());
        for (int c = RunTableModel::FixedColumns; c < model()->columnCount(); ++c)  // titles shown whole
            QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c), qPrintable(model()->headerData(c, Qt::Horizontal).toString()));
        QVERIFY(header->sectionSize(model()->columnOf("val_loss (final)")) > header->defaultSectionSize());
        const int loss = model()->columnOf("loss (final)");
        header->resizeSection(loss, 217);
        {
            RunStore store(storePath());
            store.append_metrics(rows(live_, 200, 0.05));  // the live run's next epoch (steps again from 1)
        }
        QTRY_COMPARE_WITH_TIMEOUT(cell(live_, "val_loss (best)"), QString::number(0.05 + 0.5 / 200, 'g', 5), 5000);
        QCOMPARE(header->sectionSize(loss), 217);
        QVERIFY(!explorer_->view()->wordWrap());
        QCOMPARE(index(live_, "Name").data(Qt::ToolTipRole).toString(), index(live_, "Name").data().toString());
    }
};

QTEST_MAIN(TestRunsExplorer)
#include "test_runs_explorer.moc"
