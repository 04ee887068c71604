// "valid" in the status bar means what training requires: an empty graph, or one with a
// dangling second output, is reported as not trainable with the engine's reason, and the
// Train page's Start is off with that reason; a graph that says valid trains.
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "document/add_nodes.h"
#include "document/connect_ports.h"
#include "document/fragment.h"
#include "document/project_document.h"
#include "image_folder_fixture.h"
#include "layerforge/graph/model.h"
#include "mainwindow/main_window.h"
#include "training/training_controller.h"
#include "training/training_panel.h"

using namespace lf;
using namespace lf::ui;

namespace {

QString statusTotals(MainWindow& w) {
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().contains("FLOPs/sample")) return l->text();
    return {};
}

}  // namespace

class TestTrainable : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The status bar, the Start button and the engine agree on whether the graph trains.
    void checkAgreement(MainWindow& w, bool trainable) {
        auto* panel = w.findChild<TrainingPanel*>();
        const std::string engine = training_graph_problem(w.document()->analysis());
        QCOMPARE(engine.empty(), trainable);
        const QString status = statusTotals(w);
        QCOMPARE(status.endsWith(" · valid"), trainable);
        QCOMPARE(panel->startButton()->isEnabled(), trainable);
        QCOMPARE(panel->blockedReason()->isHidden(), trainable);
        if (trainable) return;
        const QString reason = QString::fromStdString(engine);
        // An invalid graph counts its problems (listed on the canvas); a valid one says what training lacks.
        if (w.document()->analysis().ok()) QVERIFY2(status.endsWith("not trainable: " + reason), qPrintable(status));
        else QVERIFY2(status.endsWith("problem(s)"), qPrintable(status));
        QVERIFY2(panel->startButton()->toolTip().contains(reason), qPrintable(panel->startButton()->toolTip()));
        QVERIFY(panel->blockedReason()->text().contains(reason));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeImageFolder(dir_.filePath("images"));
    }

    void emptyGraphIsNotTrainable() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        checkAgreement(w, false);
        QVERIFY(w.findChild<TrainingPanel*>()->blockedReason()->text().contains("the graph has no layers"));
    }

    void aDanglingSecondOutputIsNotTrainableAndTheEngineRefusesIt() {
        MainWindow w(dir_.filePath("recovery.lfproj"), 3600000);
        w.document()->reset(tinyImageProject(dir_.filePath("images"), 1), dir_.filePath("t.lfproj"));
        checkAgreement(w, true);

        Graph extra;
        extra.nodes.push_back(newLayerNode(*w.document(), "Dense", QPointF(0, 200)));
        const std::string id = extra.nodes[0].id;
        w.document()->push(new AddNodesCommand(w.document(), std::move(extra), "Add Dense"));
        w.document()->push(new ConnectPortsCommand(w.document(), {{"flatten", 0}, {id, 0}}));
        checkAgreement(w, false);
        QVERIFY(statusTotals(w).contains("exactly one output layer"));

        // What training says when started anyway is the reason shown.
        auto* panel = w.findChild<TrainingPanel*>();
        QSignalSpy failed(panel->controller(), &TrainingController::failed);
        QVERIFY(panel->controller()->start());
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QVERIFY2(failed[0][0].toString().contains(QString::fromStdString(training_graph_problem(w.document()->analysis()))),
                 qPrintable(failed[0][0].toString()));

        w.document()->undoStack()->undo();  // the edge
        w.document()->undoStack()->undo();  // the layer
        checkAgreement(w, true);
        QSignalSpy finished(panel->controller(), &TrainingController::finished);
        panel->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
    }
};

QTEST_MAIN(TestTrainable)
#include "test_trainable.moc"
