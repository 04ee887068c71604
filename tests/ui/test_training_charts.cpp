// The live training charts: series fed by steps and epochs, coalesced redraws, decimation of a
// long curve, smoothing, axis modes, log scales, legend toggles, the hover read-out, overlays
// from a run store, and the PNG/CSV exports.
#include <QComboBox>
#include <QImage>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "charts/ema_smoothing.h"
#include "charts/metric_plot.h"
#include "charts/qcustomplot_include.h"
#include "charts/training_charts.h"
#include "layerforge/store/run_store.h"

using namespace lf;
using namespace lf::ui;

namespace {

double lossAt(std::int64_t step) { return 2.0 / (1.0 + 0.01 * double(step)) + 0.05 * std::sin(double(step)); }

// Steps 1..n, 100 steps per epoch, 0.01 s per step.
void feed(TrainingCharts& charts, std::int64_t n, std::int64_t from = 1) {
    for (std::int64_t s = from; s < from + n; ++s)
        charts.addStep(s, double(s) / 100.0, 0.01 * double(s), {{"loss", lossAt(s)}, {"accuracy", 1.0 - lossAt(s) / 3}});
}

QCPGraph* graphNamed(MetricPlot* plot, const QString& label) {
    QCustomPlot* cp = plot->customPlot();
    for (int i = 0; i < cp->graphCount(); ++i)
        if (cp->graph(i)->name() == label) return cp->graph(i);
    return nullptr;
}

// A finished run of two 3-step epochs: loss and accuracy per step, val loss per epoch, and an
// "epoch" lr row; wall times 1001..1006.5.
std::int64_t writeTwoEpochRun(const std::string& path) {
    RunStore store(path);
    const std::int64_t id = store.create_run({.name = "baseline", .status = lf::RunStatus::Finished});
    std::vector<MetricRow> rows;
    for (int s = 1; s <= 6; ++s) {
        rows.push_back({id, s, s <= 3 ? 1 : 2, "train", "loss", 1.0 / s, 1000.0 + s});
        rows.push_back({id, s, s <= 3 ? 1 : 2, "train", "accuracy", 0.1 * s, 1000.0 + s});
    }
    rows.push_back({id, 3, 1, "val", "loss", 0.7, 1003.5});
    rows.push_back({id, 6, 2, "val", "loss", 0.6, 1006.5});
    rows.push_back({id, 6, 2, "epoch", "lr", 0.01, 1006.5});
    store.append_metrics(rows);
    return id;
}

}  // namespace

class TestTrainingCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every step is a training point with its learning rate; the epoch end adds the validation
    // point only (its training metrics are the last step's, already drawn).
    void stepsCarryTheLearningRateAndEpochEndTheValidationPoint() {
        TrainingCharts charts;
        charts.beginLiveRun("run 1");
        lf::TrainEvent e;
        e.kind = lf::EventKind::Step;
        e.epoch = 1;
        e.steps_per_epoch = 2;
        for (std::int64_t step : {1, 2}) {
            e.step = step;
            e.learning_rate = 0.01 * double(step);
            e.metrics = {{"loss", 0.5 / double(step)}, {"accuracy", 0.6}};
            charts.addTrainStep(e);
        }
        charts.addEpoch(2, 1.0, 0.2, {{"loss", 0.25}, {"accuracy", 0.7}, {"val_loss", 0.4}});
        QCOMPARE(charts.pointCount("loss"), 2);
        QCOMPARE(charts.pointCount("accuracy"), 2);
        QCOMPARE(charts.pointCount("val_loss"), 1);
        QCOMPARE(charts.pointCount("lr"), 2);
        charts.replotNow();
        const QVector<QPointF> lr = charts.drawnPoints("lr");
        QCOMPARE(lr.size(), 2);
        QCOMPARE(lr[1], QPointF(2, 0.02));
    }

    void constantCurveGetsAReadableRange() {  // a fixed learning rate is not drawn at "0" on -3..3
        TrainingCharts charts;
        charts.beginLiveRun("run 1");
        for (int i = 1; i <= 20; ++i) charts.addStep(i, i / 20.0, i / 20.0, {{"loss", 1.0 / i}, {"lr", 0.001}});
        charts.replotNow();
        const QCPRange y = charts.plot("lr")->customPlot()->yAxis->range();
        QVERIFY(y.contains(0.001));
        QVERIFY2(y.lower > 0.0009 && y.upper < 0.0011, qPrintable(QString("%1..%2").arg(y.lower).arg(y.upper)));
    }

    void stepsAndEpochsFillTheirSeries() {
        TrainingCharts charts;
        charts.beginLiveRun("run 1");
        feed(charts, 10);
        charts.addEpoch(10, 0.1, 0.1, {{"loss", 0.3}, {"val_loss", 0.5}, {"val_accuracy", 0.8}});
        QCOMPARE(charts.pointCount("loss"), 10);  // addEpoch draws only validation metrics
        QCOMPARE(charts.pointCount("accuracy"), 10);
        QCOMPARE(charts.pointCount("val_loss"), 1);
        QCOMPARE(charts.pointCount("val_accuracy"), 1);
        QCOMPARE(charts.pointCount("precision"), 0);
        QCOMPARE(charts.families(), (QStringList{"loss", "accuracy"}));
        charts.addStep(11, 0.11, 0.11, {{"loss", 0.2}, {"top5", 0.9}});
        QCOMPARE(charts.families(), (QStringList{"loss", "accuracy", "top5"}));  // a new family gets a plot
        charts.replotNow();
        const QVector<QPointF> val = charts.drawnPoints("val_loss");
        QCOMPARE(val.size(), 1);
        QCOMPARE(val[0], QPointF(10, 0.5));
        QCOMPARE(graphNamed(charts.plot("loss"), "val_loss")->scatterStyle().shape(), QCPScatterStyle::ssCircle);

        charts.beginLiveRun("run 2");
        QCOMPARE(charts.pointCount("loss"), 0);
        QCOMPARE(charts.liveTitle(), QString("run 2"));
        charts.replotNow();
        QVERIFY(charts.drawnPoints("loss").isEmpty());
        QVERIFY(charts.plot("top5")->isHidden());  // no curves left in that family
        QVERIFY(!charts.plot("loss")->isHidden());
    }

    void resumedRunContinuesFromItsStep() {
        TrainingCharts charts;
        charts.beginLiveRun("resume");
        feed(charts, 20);
        feed(charts, 5, 11);  // resumed from the checkpoint at step 10
        QCOMPARE(charts.pointCount("loss"), 15);
    }

    void burstOfAppendsIsOneRedrawPerPlot() {
        TrainingCharts charts;
        charts.resize(900, 600);
        charts.show();
        QTest::qWait(100);  // first layout and the redraw the show asks for
        const int before = charts.replotCount();
        const int lossBefore = charts.plot("loss")->replotCount();
        charts.beginLiveRun("burst");
        feed(charts, 1000);
        QCOMPARE(charts.replotCount(), before);  // appends only mark the plots dirty
        QTest::qWait(150);
        const int replots = charts.replotCount() - before;
        QVERIFY2(replots >= 1 && replots <= 2, qPrintable(QString::number(replots)));  // loss + accuracy
        QCOMPARE(charts.plot("loss")->replotCount() - lossBefore, 1);
        QCOMPARE(charts.drawnPoints("loss").last().x(), 1000.0);
    }

    void hiddenChartsDoNotRedraw() {
        TrainingCharts charts;
        QTest::qWait(50);  // QCustomPlot queues one replot of its own when constructed
        const int before = charts.replotCount();
        charts.beginLiveRun("hidden");
        feed(charts, 100);
        QTest::qWait(100);
        QCOMPARE(charts.replotCount(), before);
        charts.show();
        QTest::qWait(100);
        QVERIFY(charts.replotCount() >= before + 2);
        QCOMPARE(charts.drawnPoints("loss").size(), 100);
    }

    void millionPointsDrawAFewThousand() {
        TrainingCharts charts;
        charts.resize(1200, 700);
        charts.beginLiveRun("long");
        double lo = 1e9, hi = -1e9;
        for (std::int64_t s = 1; s <= 1000000; ++s) {
            const double v = s == 654321 ? 7.5 : s == 123457 ? -2.5 : lossAt(s);  // two spikes
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            charts.addStep(s, double(s) / 1000.0, 0.001 * double(s), {{"loss", v}});
        }
        QCOMPARE(charts.pointCount("loss"), 1000000);
        charts.replotNow();
        const QVector<QPointF> drawn = charts.drawnPoints("loss");
        QVERIFY2(drawn.size() > 200 && drawn.size() <= 9000, qPrintable(QString::number(drawn.size())));
        const auto [minIt, maxIt] = std::minmax_element(drawn.begin(), drawn.end(),
                                                        [](QPointF a, QPointF b) { return a.y() < b.y(); });
        QCOMPARE(minIt->y(), lo);  // the spikes survive decimation
        QCOMPARE(maxIt->y(), hi);
        QCOMPARE(minIt->x(), 123457.0);
        QCOMPARE(drawn.first().x(), 1.0);
        QCOMPARE(drawn.last().x(), 1000000.0);
    }

    void zoomedViewDecimatesOnlyTheVisibleRange() {
        TrainingCharts charts;
        charts.resize(1200, 700);  // about 1,100 pixel columns
        charts.show();
        charts.beginLiveRun("zoom");
        feed(charts, 100000);
        charts.replotNow();
        MetricPlot* loss = charts.plot("loss");
        QVERIFY(loss->following());
        QVERIFY(charts.drawnPoints("loss").size() < 5000);
        loss->customPlot()->xAxis->setRange(1000, 2000);  // what a wheel zoom or a drag leaves
        loss->setFollowing(false);
        charts.replotNow();
        const QVector<QPointF> drawn = charts.drawnPoints("loss");
        QVERIFY2(drawn.size() >= 900, qPrintable(QString::number(drawn.size())));  // every point, not 1 in 128
        for (const QPointF& p : drawn) QVERIFY(p.x() >= 990 && p.x() <= 2010);
        QCOMPARE(loss->customPlot()->xAxis->range().lower, 1000.0);  // the user's range is kept
        feed(charts, 10, 100001);
        charts.replotNow();
        QCOMPARE(loss->customPlot()->xAxis->range().upper, 2000.0);  // new steps do not pull it away
        loss->setFollowing(true);  // double-click
        charts.replotNow();
        QCOMPARE(charts.drawnPoints("loss").last().x(), 100010.0);
    }

    void smoothingChangesWhatIsDrawnNotTheData() {
        TrainingCharts charts;
        charts.beginLiveRun("smooth");
        feed(charts, 100);
        charts.setSmoothing(0.9);
        QCOMPARE(charts.smoothing(), 0.9);
        charts.replotNow();
        std::vector<double> raw;
        for (std::int64_t s = 1; s <= 100; ++s) raw.push_back(lossAt(s));
        const std::vector<double> expected = smoothed(raw, 0.9);
        const QVector<QPointF> drawn = charts.drawnPoints("loss");
        QCOMPARE(drawn.size(), 100);
        for (int i = 0; i < 100; ++i) QCOMPARE(drawn[i].y(), expected[std::size_t(i)]);
        charts.addEpoch(50, 0.5, 0.5, {{"val_loss", 0.5}});
        charts.addEpoch(100, 1.0, 1.0, {{"val_loss", 0.25}});
        charts.replotNow();
        QCOMPARE(charts.drawnPoints("val_loss")[1].y(), 0.25);  // validation is never smoothed
        const QVector<QPointF> faint = charts.plot("loss")->drawnPoints("loss#raw");  // raw behind
        QCOMPARE(faint.size(), 100);
        for (int i = 0; i < 100; ++i) QCOMPARE(faint[i].y(), raw[std::size_t(i)]);
        feed(charts, 1, 101);  // a live append is smoothed with the same factor
        charts.replotNow();
        raw.push_back(lossAt(101));
        QCOMPARE(charts.drawnPoints("loss").last().y(), smoothed(raw, 0.9).back());
        std::ostringstream csv;
        charts.writeCsv(csv);
        QVERIFY(csv.str().find("live,loss,1,0.01,0.01," + std::to_string(lossAt(1)).substr(0, 6)) != std::string::npos);
        charts.setSmoothing(0);
        charts.replotNow();
        QVERIFY(charts.plot("loss")->drawnPoints("loss#raw").isEmpty());
        QCOMPARE(charts.drawnPoints("loss").last().y(), lossAt(101));
        charts.setSmoothing(5);
        QCOMPARE(charts.smoothing(), kMaxSmoothing);
    }

    void axisModeSwitchesTheKeys() {
        TrainingCharts charts;
        charts.beginLiveRun("axes");
        feed(charts, 50);
        charts.addEpoch(50, 0.5, 0.55, {{"val_loss", 0.9}});
        charts.replotNow();
        MetricPlot* loss = charts.plot("loss");
        QCOMPARE(loss->customPlot()->xAxis->label(), QString("step"));
        QCOMPARE(charts.drawnPoints("loss")[9].x(), 10.0);
        charts.setXAxisMode(XAxisMode::Epoch);
        charts.replotNow();
        QCOMPARE(loss->customPlot()->xAxis->label(), QString("epoch"));
        QCOMPARE(charts.drawnPoints("loss")[9].x(), 0.1);
        QCOMPARE(charts.drawnPoints("val_loss")[0].x(), 0.5);
        QVERIFY(loss->customPlot()->xAxis->range().upper >= 0.5 && loss->customPlot()->xAxis->range().upper < 1);
        charts.setXAxisMode(XAxisMode::Seconds);
        charts.replotNow();
        QCOMPARE(loss->customPlot()->xAxis->label(), QString("time (s)"));
        QCOMPARE(charts.drawnPoints("loss")[9].x(), 0.1);
        QCOMPARE(charts.drawnPoints("val_loss")[0].x(), 0.55);
        QCOMPARE(charts.findChild<QComboBox*>()->currentIndex(), int(XAxisMode::Seconds));
        charts.findChild<QComboBox*>()->setCurrentIndex(int(XAxisMode::Step));  // the toolbar's way
        QCOMPARE(charts.xAxisMode(), XAxisMode::Step);
    }

    void logScaleOnEitherAxis() {
        TrainingCharts charts;
        charts.beginLiveRun("log");
        feed(charts, 50);
        charts.setLogScale(Qt::Vertical, true);
        charts.replotNow();
        QCustomPlot* cp = charts.plot("loss")->customPlot();
        QCOMPARE(cp->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(cp->xAxis->scaleType(), QCPAxis::stLinear);
        charts.setLogScale(Qt::Horizontal, true);
        charts.setLogScale(Qt::Vertical, false);
        charts.replotNow();
        QCOMPARE(cp->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(cp->yAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY(charts.logScale(Qt::Horizontal));
        QVERIFY(cp->xAxis->range().lower > 0);
    }

    void legendClickTogglesASeries() {
        TrainingCharts charts;
        charts.resize(900, 700);
        charts.show();
        charts.replotNow();
        QVERIFY(charts.families().contains("loss"));
        for (const QString& family : charts.families())  // no curve yet: no empty legend box
            QVERIFY2(!charts.plot(family)->customPlot()->legend->visible(), qPrintable(family));
        charts.beginLiveRun("legend");
        feed(charts, 30);
        charts.addEpoch(30, 0.3, 0.3, {{"val_loss", 0.9}});
        charts.replotNow();
        QCustomPlot* cp = charts.plot("loss")->customPlot();
        QVERIFY(cp->legend->visible());
        QCPGraph* graph = graphNamed(charts.plot("loss"), "loss");
        QVERIFY(graph);
        const QPoint entry = cp->legend->itemWithPlottable(graph)->rect().center();
        QTest::mouseClick(cp, Qt::LeftButton, {}, entry);
        QVERIFY(!charts.isSeriesVisible("loss"));
        QVERIFY(!graph->visible());
        QVERIFY(charts.isSeriesVisible("val_loss"));
        charts.replotNow();  // stays hidden across redraws
        QVERIFY(!graph->visible());
        QTest::mouseClick(cp, Qt::LeftButton, {}, entry);
        QVERIFY(charts.isSeriesVisible("loss"));
        QVERIFY(graph->visible());
        charts.setSeriesVisible("val_loss", false);
        QVERIFY(!graphNamed(charts.plot("loss"), "val_loss")->visible());
    }

    void hoverShowsTheNearestPoint() {
        TrainingCharts charts;
        charts.resize(900, 700);
        charts.show();
        charts.beginLiveRun("hover");
        feed(charts, 40);
        charts.replotNow();
        MetricPlot* loss = charts.plot("loss");
        QCustomPlot* cp = loss->customPlot();
        const QPoint at(int(cp->xAxis->coordToPixel(25)), int(cp->yAxis->coordToPixel(lossAt(25))) + 2);
        QTest::mouseMove(cp, at);
        loss->hoverAt(at);  // the same as the mouse move, in case the platform drops synthetic moves
        const QString text = loss->readout();
        QVERIFY2(text.startsWith("step 25\n"), qPrintable(text));
        QVERIFY2(text.contains("loss: " + QString::number(lossAt(25), 'g', 5)), qPrintable(text));
        loss->hoverAt(QPoint(1, 1));  // outside the axis rect
        QVERIFY(loss->readout().isEmpty());
    }

    void overlaysAnEarlierRunFromTheStore() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/p.lfruns").toStdString();
        const std::int64_t id = writeTwoEpochRun(path);
        TrainingCharts charts;
        charts.setStorePath(QString::fromStdString(path));
        charts.refreshRunsMenu();
        const QList<QAction*> actions = charts.runsMenu()->actions();
        QCOMPARE(actions.size(), 1);
        QVERIFY(actions[0]->text().contains("baseline"));
        actions[0]->setChecked(true);  // what picking it in the menu does
        QCOMPARE(charts.overlayRuns(), QList<qint64>{id});
        const QString key = QString("run%1/").arg(id);
        QCOMPARE(charts.pointCount(key + "loss"), 6);
        QCOMPARE(charts.pointCount(key + "accuracy"), 6);
        QCOMPARE(charts.pointCount(key + "val_loss"), 2);
        QCOMPARE(charts.pointCount(key + "lr"), 0);  // "epoch" rows are left out
        QCOMPARE(charts.pointCount("loss"), 0);      // the live run is separate

        charts.beginLiveRun("live");  // the overlay survives a new live run
        feed(charts, 3);
        charts.setXAxisMode(XAxisMode::Epoch);
        charts.replotNow();
        const QVector<QPointF> overlay = charts.drawnPoints(key + "loss");
        QCOMPARE(overlay.size(), 6);
        QCOMPARE(overlay[4], QPointF(5.0 / 3.0, 0.2));
        QCOMPARE(charts.drawnPoints(key + "val_loss")[1], QPointF(2, 0.6));
        QVERIFY(graphNamed(charts.plot("loss"), QString("#%1 loss").arg(id)));

        std::ostringstream csv;
        charts.writeCsv(csv);
        QVERIFY(csv.str().find(std::to_string(id) + ",val_loss,6,2,5.5,0.6\n") != std::string::npos);

        charts.refreshRunsMenu();
        QVERIFY(charts.runsMenu()->actions()[0]->isChecked());
        charts.runsMenu()->actions()[0]->setChecked(false);
        QVERIFY(charts.overlayRuns().isEmpty());
        QCOMPARE(charts.pointCount(key + "loss"), 0);
        charts.replotNow();
        QVERIFY(!graphNamed(charts.plot("loss"), QString("#%1 loss").arg(id)));

        QString error;
        QVERIFY(!charts.addOverlay(id + 41, &error));
        QVERIFY2(error.contains(QString::fromStdString(path)) && error.contains(QString::number(id + 41)),
                 qPrintable(error));
        charts.setStorePath(dir.path() + "/missing.lfruns");
        charts.refreshRunsMenu();
        QVERIFY(!charts.runsMenu()->actions()[0]->isEnabled());  // says why instead of listing
    }

    void resumedRunContinuesItsStoredCurves() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/p.lfruns").toStdString();
        const std::int64_t id = writeTwoEpochRun(path);
        TrainingCharts charts;
        charts.setStorePath(QString::fromStdString(path));
        QString error;
        QVERIFY2(charts.continueLiveRun("resumed", id, &error), qPrintable(error));
        QCOMPARE(charts.liveTitle(), QString("resumed"));
        QCOMPARE(charts.pointCount("loss"), 6);
        QCOMPARE(charts.pointCount("val_loss"), 2);
        charts.addStep(4, 4.0 / 3.0, 0.5, {{"loss", 0.3}});  // resumed from the checkpoint at step 3
        QCOMPARE(charts.pointCount("loss"), 4);
        charts.setXAxisMode(XAxisMode::Seconds);
        charts.replotNow();
        QCOMPARE(charts.drawnPoints("loss").last(), QPointF(6.0, 0.3));  // 5.5 s stored + 0.5 s
        QVERIFY(!charts.continueLiveRun("gone", id + 7, &error));
        QVERIFY(error.contains(QString::number(id + 7)));
        QCOMPARE(charts.pointCount("loss"), 0);
    }

    void exportsCsvAndPng() {
        TrainingCharts charts;
        charts.beginLiveRun("export");
        charts.addStep(1, 0.5, 0.25, {{"loss", 0.5}, {"accuracy", 0.25}});
        charts.addStep(2, 1.0, 0.5, {{"loss", 0.25}, {"accuracy", 0.5}});
        charts.addEpoch(2, 1.0, 0.75, {{"loss", 0.3}, {"val_loss", 0.75}});
        charts.setSmoothing(0.5);  // exports stay raw
        QTemporaryDir dir;
        QString error;
        QVERIFY2(charts.exportCsv(dir.path() + "/curves.csv", &error), qPrintable(error));
        QFile file(dir.path() + "/curves.csv");
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), QString("run,series,step,epoch,seconds,value\n"
                                                            "live,loss,1,0.5,0.25,0.5\n"
                                                            "live,loss,2,1,0.5,0.25\n"
                                                            "live,accuracy,1,0.5,0.25,0.25\n"
                                                            "live,accuracy,2,1,0.5,0.5\n"
                                                            "live,val_loss,2,1,0.75,0.75\n"));
        QVERIFY(!charts.exportCsv(dir.path() + "/no/such/dir/x.csv", &error));
        QVERIFY(error.contains("no/such/dir"));

        QVERIFY2(charts.exportPng(dir.path() + "/curves.png", &error), qPrintable(error));
        QImage image(dir.path() + "/curves.png");
        QVERIFY(!image.isNull());
        QCOMPARE(image.height(), 2 * 320);  // two plots stacked, not laid out: 900x320 each
        QCOMPARE(image.width(), 900);
        // The curve is drawn: some pixels carry the training colour.
        bool colored = false;
        for (int y = 0; y < image.height() && !colored; ++y)
            for (int x = 0; x < image.width() && !colored; ++x) colored = image.pixelColor(x, y) == QColor(31, 119, 180);
        QVERIFY(colored);
    }
};

QTEST_MAIN(TestTrainingCharts)
#include "test_training_charts.moc"
#include "run_status_text.h"
