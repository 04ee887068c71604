// Every undo command: redo -> undo -> redo round-trips the serialised project; merging of
// moves and parameter edits; the document's modified state follows the undo stack.
#include <QTemporaryDir>
#include <QtTest>

#include "canvas/auto_layout.h"
#include "document/add_nodes.h"
#include "document/change_groups.h"
#include "document/connect_ports.h"
#include "document/fragment.h"
#include "document/move_nodes.h"
#include "document/remove_edges.h"
#include "document/remove_nodes.h"
#include "document/rename_node.h"
#include "document/set_param.h"
#include "document/set_training.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

class TestCommands : public QObject {
    Q_OBJECT
    ProjectDocument* doc_ = nullptr;

private Q_SLOTS:
    void init() {
        doc_ = new ProjectDocument(this);
        loadTemplate(*doc_);
        QVERIFY(!doc_->isModified());
    }
    void cleanup() { delete doc_; }

    void addNodes() {
        Graph f;
        f.nodes.push_back(newLayerNode(*doc_, "Dropout", {10, 10}));
        QCOMPARE(f.nodes[0].name, std::string("dropout"));
        f.edges.push_back({{"dense", 0}, {f.nodes[0].id, 0}});
        checkRoundTrip(*doc_, new AddNodesCommand(doc_, f, "add"));
        QVERIFY(doc_->graph().find("dropout"));
        QVERIFY(doc_->isModified());
    }

    void removeNodesWithEdges() {
        checkRoundTrip(*doc_, new RemoveNodesCommand(doc_, {"flatten"}, {}, "delete"));
        QCOMPARE(doc_->graph().nodes.size(), std::size_t(7));
        QCOMPARE(doc_->graph().edges.size(), std::size_t(5));  // three edges touched flatten
    }

    void groupCollapseUngroupRoundTrip() {
        checkRoundTrip(*doc_, groupNodesCommand(doc_, {"add", "dense", "dense_skip"}));
        QCOMPARE(doc_->graph().groups.size(), std::size_t(1));
        const NodeGroup g = doc_->graph().groups[0];
        QCOMPARE(g.nodes, (std::vector<std::string>{"dense", "dense_skip", "add"}));  // document order
        QVERIFY(!g.collapsed);
        QVERIFY(!setCollapsedCommand(doc_, g.id, false));  // already expanded: nothing to do
        checkRoundTrip(*doc_, setCollapsedCommand(doc_, g.id, true));
        QVERIFY(doc_->graph().groups[0].collapsed);
        checkRoundTrip(*doc_, setCollapsedCommand(doc_, g.id, false));
        // Regrouping a member moves it into the new group.
        checkRoundTrip(*doc_, groupNodesCommand(doc_, {"add", "relu"}));
        QCOMPARE(doc_->graph().groups[0].nodes, (std::vector<std::string>{"dense", "dense_skip"}));
        QCOMPARE(doc_->graph().groups[1].nodes, (std::vector<std::string>{"add", "relu"}));
        QVERIFY(doc_->graph().groups[0].id != doc_->graph().groups[1].id);
        checkRoundTrip(*doc_, ungroupCommand(doc_, {g.id}));
        QCOMPARE(doc_->graph().groups.size(), std::size_t(1));
        QVERIFY(!ungroupCommand(doc_, {"no_such_group"}));
        QVERIFY(!groupNodesCommand(doc_, {}));
        // Undo all the way back to the file as loaded.
        while (doc_->undoStack()->canUndo()) doc_->undoStack()->undo();
        QVERIFY(doc_->graph().groups.empty());
        QVERIFY(!doc_->isModified());
    }

    void removedNodesLeaveTheirGroups() {
        doc_->push(groupNodesCommand(doc_, {"relu", "dense_out"}));
        doc_->push(groupNodesCommand(doc_, {"softmax"}));
        checkRoundTrip(*doc_, new RemoveNodesCommand(doc_, {"relu", "softmax"}, {}, "delete"));
        QCOMPARE(doc_->graph().groups.size(), std::size_t(1));  // the group left empty went
        QCOMPARE(doc_->graph().groups[0].nodes, std::vector<std::string>{"dense_out"});
    }

    void groupsSurviveSaveAndOpen() {
        doc_->push(groupNodesCommand(doc_, {"dense", "dense_skip", "add"}));
        doc_->push(setCollapsedCommand(doc_, doc_->graph().groups[0].id, true));
        QTemporaryDir dir;
        const QString path = dir.filePath("grouped.lfproj");
        QString error;
        QVERIFY2(doc_->saveAs(path, &error), qPrintable(error));
        ProjectDocument reopened;
        QVERIFY2(reopened.load(path, &error), qPrintable(error));
        QVERIFY(reopened.graph().groups == doc_->graph().groups);
        QVERIFY(reopened.graph().groups[0].collapsed);
        QCOMPARE(reopened.serialized(), doc_->serialized());
    }

    void connectNew() {
        Graph f;
        f.nodes.push_back(newLayerNode(*doc_, "Dense", {0, 0}));
        doc_->push(new AddNodesCommand(doc_, f, "add"));
        checkRoundTrip(*doc_, new ConnectPortsCommand(doc_, {{"relu", 0}, {f.nodes[0].id, 0}}));
        QCOMPARE(doc_->graph().inputs_of(f.nodes[0].id).size(), std::size_t(1));
    }

    void connectReplacesFedPort() {
        checkRoundTrip(*doc_, new ConnectPortsCommand(doc_, {{"flatten", 0}, {"dense_out", 0}}));
        auto in = doc_->graph().inputs_of("dense_out");
        QCOMPARE(in.size(), std::size_t(1));
        QCOMPARE(in[0].from.node, std::string("flatten"));
    }

    void disconnect() {
        checkRoundTrip(*doc_, new RemoveEdgesCommand(doc_, {{{"dense", 0}, {"add", 0}}}));
        QCOMPARE(doc_->graph().edges.size(), std::size_t(7));
    }

    void move() {
        checkRoundTrip(*doc_, new MoveNodesCommand(doc_, {{"dense", QPointF(40, 60)}}, "move"));
        QCOMPARE(doc_->graph().find("dense")->x, 40.0);
    }

    void setParamAndClear() {
        checkRoundTrip(*doc_, new SetParamCommand(doc_, "dense", "units", ParamValue(std::int64_t(64))));
        QCOMPARE(doc_->analysis().nodes.at("dense").layer.output.str(), std::string("(?, 64)"));
        checkRoundTrip(*doc_, new SetParamCommand(doc_, "dense", "activation", std::nullopt));
        QVERIFY(!doc_->graph().find("dense")->params.count("activation"));
    }

    void rename() {
        checkRoundTrip(*doc_, new RenameNodeCommand(doc_, "dense", "hidden"));
        QCOMPARE(doc_->graph().find("dense")->name, std::string("hidden"));
    }

    void training() {
        TrainingConfig t = doc_->project().training;
        t.batch_size = 128;
        checkRoundTrip(*doc_, new SetTrainingCommand(doc_, t, doc_->project().dataset));
    }

    void autoLayoutIsOneStep() {
        auto at = layeredLayout(doc_->graph(), LayoutDirection::TopToBottom);
        checkRoundTrip(*doc_, new MoveNodesCommand(doc_, at, "layout", false));
        doc_->push(new MoveNodesCommand(doc_, layeredLayout(doc_->graph(), LayoutDirection::LeftToRight), "layout", false));
        QCOMPARE(doc_->undoStack()->count(), 2);  // never merged
    }

    void consecutiveMovesMerge() {
        const QString before = doc_->serialized();
        for (int i = 1; i <= 5; ++i)
            doc_->push(new MoveNodesCommand(doc_, {{"dense", QPointF(400 + 20 * i, 0)}}, "move"));
        QCOMPARE(doc_->undoStack()->count(), 1);
        QCOMPARE(doc_->graph().find("dense")->x, 500.0);
        doc_->push(new MoveNodesCommand(doc_, {{"add", QPointF(0, 0)}}, "move other"));
        QCOMPARE(doc_->undoStack()->count(), 2);  // a different node set starts a new step
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(doc_->serialized(), before);
        QVERIFY(!doc_->isModified());
    }

    void consecutiveParamEditsMerge() {
        for (int units = 101; units <= 110; ++units)
            doc_->push(new SetParamCommand(doc_, "dense", "units", ParamValue(std::int64_t(units))));
        QCOMPARE(doc_->undoStack()->count(), 1);
        doc_->push(new SetParamCommand(doc_, "dense", "units", ParamValue(std::int64_t(100))));
        QCOMPARE(doc_->undoStack()->count(), 0);  // back to the start: the merged step is obsolete
        QVERIFY(!doc_->isModified());
    }

    void changeSignalPerCommand() {
        QSignalSpy spy(doc_, &ProjectDocument::changed);
        doc_->push(new RenameNodeCommand(doc_, "dense", "hidden"));
        doc_->undoStack()->undo();
        QCOMPARE(spy.count(), 2);
    }
};

QTEST_MAIN(TestCommands)
#include "test_commands.moc"
