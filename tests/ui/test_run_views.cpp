// The views of a real short run on a generated image folder: the quick-run limit on training
// images, the per-layer profile (table and canvas cards) from the engine's timings, and every
// test sample's result on the Evaluate page with its filters and CSV export.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "canvas/canvas_scene.h"
#include "canvas/node_item.h"
#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "evaluation/sample_results_model.h"
#include "evaluation/sample_results_view.h"
#include "mainwindow/main_window.h"
#include "profile/layer_profile_model.h"
#include "profile/layer_profile_view.h"
#include "session/studio_session.h"
#include "training/run_options_form.h"
#include "training/training_panel.h"
#include "image_folder_fixture.h"

using namespace lf;
using namespace lf::ui;

namespace {

const LayerProfileRow* row(const LayerProfileModel& m, const QString& node) {
    for (const LayerProfileRow& r : m.rows())
        if (r.node == node) return &r;
    return nullptr;
}

}  // namespace

class TestRunViews : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Trains the window's project to the end with every step reported; returns the events.
    static QList<TrainEvent> train(MainWindow& w) {
        TrainingController* c = w.findChild<TrainingPanel*>()->controller();
        TrainingOptions o = c->options();
        o.logEvery = 1;
        o.eventIntervalMs = 0;
        c->setOptions(o);
        QSignalSpy events(c, &TrainingController::trainEvent), finished(c, &TrainingController::finished);
        if (!c->start()) return {};
        if (!QTest::qWaitFor([&] { return finished.size() == 1; }, 20000)) return {};
        QList<TrainEvent> out;
        for (const auto& args : events) out << args.at(0).value<TrainEvent>();
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));  // 60 training images, 12 test images, 3 classes
    }

    void quickRunLimitsTheTrainingImages() {
        MainWindow w(dir_.filePath("recovery1.lfproj"), 3600000);
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1), dir_.filePath("quick.lfproj"));
        auto* panel = w.findChild<TrainingPanel*>();
        QSpinBox* limit = panel->runOptions()->limitTrain();
        QCOMPARE(limit->value(), 0);
        QCOMPARE(limit->text(), QString("all"));
        limit->setValue(6);  // the user's spin box: the controller takes it at once
        QCOMPARE(panel->controller()->options().limitTrain, 6);
        const QList<TrainEvent> events = train(w);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.last().kind, EventKind::Finished);
        QCOMPARE(events.last().steps_per_epoch, 2);  // 6 images in batches of 4, not 60 (15 steps)
        QCOMPARE(events.last().step, 2);
        QCOMPARE(w.document()->project().dataset.limit_train, 0);  // the project is not changed

        limit->setValue(0);
        const QList<TrainEvent> all = train(w);
        QVERIFY(!all.isEmpty());
        QCOMPARE(all.last().steps_per_epoch, 15);
    }

    void profileAndEverySampleAfterARun() {
        MainWindow w(dir_.filePath("recovery2.lfproj"), 3600000);
        Project p = tinyImageProject(dir_.filePath("images"), 2);
        p.graph.nodes.insert(p.graph.nodes.begin() + 2, Node{"hidden", "Dense", "hidden", {{"units", std::int64_t(16)},
                                                                                       {"activation", std::string("relu")}}, 0, 0});
        p.graph.edges = {{{"input", 0}, {"flatten", 0}}, {{"flatten", 0}, {"hidden", 0}}, {{"hidden", 0}, {"dense", 0}},
                         {{"dense", 0}, {"softmax", 0}}};
        w.document()->reset(p, dir_.filePath("views.lfproj"));
        w.show();
        auto* profile = w.findChild<LayerProfileView*>();
        QVERIFY(profile);
        QCOMPARE(profile->model()->rowCount(), 0);
        const QList<TrainEvent> events = train(w);
        QVERIFY(events.size() > 0);
        // During the run: step events carry the profile so far (the first log point: one step).
        const TrainEvent* firstStep = nullptr;
        for (const TrainEvent& e : events)
            if (e.kind == EventKind::Step && !e.profile.empty()) {
                firstStep = &e;
                break;
            }
        QVERIFY(firstStep);
        QCOMPARE(firstStep->step, 1);
        bool seen = false;
        for (const LayerProfile& l : firstStep->profile)
            if (l.node == "hidden") {
                QCOMPARE(l.forwards, 1);
                seen = true;
            }
        QVERIFY(seen);

        // The profile: the layers that run kernels, with times per step from 2 x 15 steps.
        LayerProfileModel* m = profile->model();
        const LayerProfileRow* hidden = row(*m, "hidden");
        const LayerProfileRow* dense = row(*m, "dense");
        QVERIFY(hidden && dense);
        QVERIFY(!row(*m, "input") && !row(*m, "flatten"));  // run nothing
        QCOMPARE(hidden->type, QString("Dense"));
        QVERIFY(hidden->forward_ms > 0 && hidden->backward_ms > 0);
        QVERIFY(hidden->bytes >= qint64(2 * 4 * 16 * sizeof(float)));  // its output and gradient for a batch of 4
        double shares = 0;
        for (const LayerProfileRow& r : m->rows()) shares += r.share;
        QVERIFY(qAbs(shares - 1.0) < 1e-9);
        QVERIFY(qAbs(hidden->total_ms - 30 * (hidden->forward_ms + hidden->backward_ms)) < 1e-6 * 30 + 1e-9);
        // Sortable: by memory, largest first.
        profile->table()->sortByColumn(LayerProfileModel::Memory, Qt::DescendingOrder);
        QAbstractItemModel* shown = profile->table()->model();
        qint64 previous = std::numeric_limits<qint64>::max();
        for (int r = 0; r < shown->rowCount(); ++r) {
            const qint64 bytes = shown->index(r, LayerProfileModel::Memory).data(LayerProfileModel::SortRole).toLongLong();
            QVERIFY(bytes <= previous);
            previous = bytes;
        }
        // On the cards: the layer's line, none on the Input.
        NodeItem* card = w.scene()->nodeItem("hidden");
        QCOMPARE(card->profileText(), profileCardText(*hidden));
        QVERIFY(card->profileText().contains(" ms · "));
        QVERIFY(w.scene()->nodeItem("input")->profileText().isEmpty());
        // The caption tells how a GPU plan's passes ran; the CPU's says nothing of it.
        QVERIFY(firstStep->execution.empty());
        QVERIFY(!profile->caption()->text().contains("Passes"));
        profile->showProfile(firstStep->profile, 1, "forward: replayed as a CUDA graph");
        QVERIFY(profile->caption()->text().endsWith("\nPasses: forward: replayed as a CUDA graph."));

        // Every test sample on the Evaluate page.
        auto* evaluation = w.findChild<EvaluationView*>();
        QSignalSpy evaluated(evaluation, &EvaluationView::evaluated);
        evaluation->evaluate();
        QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 20000);
        SampleResultsView* samples = evaluation->samples();
        QTableView* table = samples->table();
        QCOMPARE(table->model()->rowCount(), 12);
        const EvaluationResult& result = evaluation->result();
        const std::int64_t wrong = result.matrix.total() - result.matrix.correct();
        QCOMPARE(result.samples.size(), std::size_t(12));
        QCOMPARE(table->model()->index(0, SampleResultsModel::Sample).data().toLongLong(), 0LL);
        const SampleResult& first = result.samples[0];
        QCOMPARE(table->model()->index(0, SampleResultsModel::Label).data().toString(), result.classNames[first.label]);
        QCOMPARE(table->model()->index(0, SampleResultsModel::Predicted).data().toString(), result.classNames[first.predicted]);

        samples->classFilter()->setCurrentIndex(samples->classFilter()->findText("mid"));
        QCOMPARE(table->model()->rowCount(), 4);
        for (int r = 0; r < 4; ++r) QCOMPARE(table->model()->index(r, SampleResultsModel::Label).data().toString(), QString("mid"));
        samples->classFilter()->setCurrentIndex(0);
        samples->outcomeFilter()->setCurrentIndex(2);  // incorrect only
        QCOMPARE(table->model()->rowCount(), int(wrong));
        samples->outcomeFilter()->setCurrentIndex(1);  // correct only
        QCOMPARE(table->model()->rowCount(), int(12 - wrong));

        // The CSV holds the rows shown, in their order.
        samples->outcomeFilter()->setCurrentIndex(0);
        table->sortByColumn(SampleResultsModel::Confidence, Qt::DescendingOrder);
        const QString csv = dir_.filePath("samples.csv");
        QString error;
        QVERIFY2(samples->exportCsv(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 13);
        QCOMPARE(lines[0], QString("sample,label,predicted,confidence,correct"));
        double last = 2;
        int correct = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(',');
            QCOMPARE(cells.size(), 5);
            const SampleResult& s = result.samples[std::size_t(cells[0].toLongLong())];
            QCOMPARE(cells[1], result.classNames[s.label]);
            QCOMPARE(cells[2], result.classNames[s.predicted]);
            QVERIFY(qAbs(cells[3].toDouble() - s.confidence) < 1e-6);
            QVERIFY(cells[3].toDouble() <= last);
            last = cells[3].toDouble();
            QCOMPARE(cells[4], QString(s.label == s.predicted ? "1" : "0"));
            correct += cells[4] == "1";
        }
        QCOMPARE(correct, int(result.matrix.correct()));

        // Another project: the profile was the old one's.
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1), {});
        QCOMPARE(profile->model()->rowCount(), 0);
        QVERIFY(w.scene()->nodeItem("dense")->profileText().isEmpty());
    }

    void csvQuotesClassNamesThatNeedIt() {
        SampleResultsModel model;
        model.setResults({{0, 0, 1, 0.75f}, {1, 1, 1, 0.5f}}, {"cat, wild", "say \"hi\""});
        QCOMPARE(samplesCsv(model), QString("sample,label,predicted,confidence,correct\n"
                                            "0,\"cat, wild\",\"say \"\"hi\"\"\",0.750000,0\n"
                                            "1,\"say \"\"hi\"\"\",\"say \"\"hi\"\"\",0.500000,1\n"));
    }
};

QTEST_MAIN(TestRunViews)
#include "test_run_views.moc"
