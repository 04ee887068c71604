// The canvas with real input: a palette drop (a QDropEvent carrying the palette's QMimeData,
// sent to the view's viewport), port-to-port connection and node moves with QTest mouse
// events on the viewport, undo/redo of every step, refusal of cycles and incompatible shapes,
// copy/paste, delete with edges, error badges, auto-layout.
#include <QApplication>
#include <QMimeData>
#include <QtTest>

#include "canvas/auto_layout.h"
#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edge_item.h"
#include "canvas/edit_operations.h"
#include "canvas/group_item.h"
#include "canvas/node_item.h"
#include "document/fragment.h"
#include "document/set_param.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

class TestCanvas : public QObject {
    Q_OBJECT
    ProjectDocument* doc_ = nullptr;
    CanvasScene* scene_ = nullptr;
    CanvasView* view_ = nullptr;
    QString lastStatus_;

    void dropLayer(const char* type, QPoint at) {
        QMimeData mime;
        mime.setData(kLayerMimeType, type);
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view_->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view_->viewport(), &drop);
        QVERIFY(drop.isAccepted());
    }

    QPoint toView(QPointF scenePos) const { return view_->mapFromScene(scenePos); }

    // Presses on `from`'s output port and drags to `to`'s input port through the viewport.
    void dragConnect(const std::string& from, const std::string& to, int port = 0) {
        QPoint a = toView(scene_->nodeItem(from)->outputPortPos());
        QPoint b = toView(scene_->nodeItem(to)->inputPortPos(port));
        QTest::mousePress(view_->viewport(), Qt::LeftButton, {}, a);
        QTest::mouseMove(view_->viewport(), (a + b) / 2);
        QTest::mouseMove(view_->viewport(), b);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, {}, b);
    }

private Q_SLOTS:
    void init() {
        doc_ = new ProjectDocument;
        scene_ = new CanvasScene(doc_);
        view_ = new CanvasView(scene_);
        view_->resize(1000, 700);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_));
        view_->centerOn(400, 150);
        connect(scene_, &CanvasScene::statusMessage, this, [this](const QString& m) { lastStatus_ = m; });
    }
    void cleanup() {
        delete view_;
        delete scene_;
        delete doc_;
        lastStatus_.clear();
    }

    void dropConnectUndoRedo() {
        QStringList states{doc_->serialized()};
        dropLayer("Input", {150, 300});
        states << doc_->serialized();
        dropLayer("Flatten", {500, 300});
        states << doc_->serialized();
        QCOMPARE(doc_->graph().nodes.size(), std::size_t(2));
        QCOMPARE(doc_->graph().nodes[1].name, std::string("flatten"));
        dragConnect("input", "flatten");
        states << doc_->serialized();
        QCOMPARE(doc_->graph().edges.size(), std::size_t(1));
        QCOMPARE(doc_->graph().edges[0], (Edge{{"input", 0}, {"flatten", 0}}));
        QCOMPARE(scene_->edgeItem(doc_->graph().edges[0])->label(), QString("(?, 28, 28, 1)"));
        // drag the Flatten card by its body: one move command
        QPoint body = toView(scene_->nodeItem("flatten")->mapToScene(QPointF(90, 40)));
        QTest::mousePress(view_->viewport(), Qt::LeftButton, {}, body);
        QTest::mouseMove(view_->viewport(), body + QPoint(30, 10));
        QTest::mouseMove(view_->viewport(), body + QPoint(80, 60));
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, {}, body + QPoint(80, 60));
        states << doc_->serialized();
        QCOMPARE(doc_->undoStack()->count(), 4);
        QVERIFY(states[4] != states[3]);
        for (int i = 3; i >= 0; --i) {
            doc_->undoStack()->undo();
            QCOMPARE(doc_->serialized(), states[i]);
        }
        QCOMPARE(scene_->items().size(), 0);
        for (int i = 1; i <= 4; ++i) {
            doc_->undoStack()->redo();
            QCOMPARE(doc_->serialized(), states[i]);
        }
        QCOMPARE(scene_->edgeCount(), std::size_t(1));
    }

    void collapsedBlockReroutesEdges() {
        loadTemplate(*doc_);
        scene_->selectNodes({"dense", "dense_skip", "add"});
        groupSelection(scene_);
        QCOMPARE(doc_->graph().groups.size(), std::size_t(1));
        const auto groupId = doc_->graph().groups[0].id;
        GroupItem* block = scene_->groupItem(groupId);
        QVERIFY(block && !block->collapsed());
        QVERIFY(block->sceneBoundingRect().contains(scene_->nodeItem("add")->sceneBoundingRect()));
        // A click on the arrow in the title collapses it: one card, members and inner edges hidden.
        view_->centerOn(block->sceneBoundingRect().topLeft());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, toView(block->mapToScene(QPointF(18, 13))));
        QVERIFY(doc_->graph().groups[0].collapsed);
        QVERIFY(block->collapsed());
        QVERIFY(!scene_->nodeItem("add")->isVisible());
        QVERIFY(!scene_->edgeItem({{"dense", 0}, {"add", 0}})->isVisible());
        EdgeItem* in = scene_->edgeItem({{"flatten", 0}, {"dense_skip", 0}});
        EdgeItem* out = scene_->edgeItem({{"add", 0}, {"relu", 0}});
        QVERIFY(in->isVisible() && out->isVisible());
        QCOMPARE(in->path().pointAtPercent(1), block->inputPortPos(1));  // second edge in: second port
        QCOMPARE(out->path().pointAtPercent(0), block->outputPortPos(0));
        QCOMPARE(out->label(), QString("(?, 100)"));
        // Undo expands again; ungroup removes the frame.
        doc_->undoStack()->undo();
        QVERIFY(scene_->nodeItem("add")->isVisible());
        QCOMPARE(out->path().pointAtPercent(0), scene_->nodeItem("add")->outputPortPos());
        scene_->selectNodes({"add"});
        ungroupSelection(scene_);
        QVERIFY(doc_->graph().groups.empty());
        QVERIFY(!scene_->groupItem(groupId));  // the frame, and so `block`, is gone
    }

    void cycleIsRefused() {
        loadTemplate(*doc_);
        view_->fitInView(scene_->itemsBoundingRect());
        const QString before = doc_->serialized();
        dragConnect("softmax", "dense");
        QCOMPARE(doc_->serialized(), before);
        QVERIFY2(lastStatus_.contains("cycle"), qPrintable(lastStatus_));
    }

    void incompatibleShapesAreRefused() {
        dropLayer("Input", {150, 300});
        dropLayer("Dense", {500, 300});
        dragConnect("input", "dense");
        QVERIFY(doc_->graph().edges.empty());
        QCOMPARE(lastStatus_, QString("Not connected: Incompatible shapes: Dense expects 2-D input, got (?, 28, 28, "
                                      "1): add Flatten"));
    }

    void errorBadgeForShapeMismatch() {
        Project p;
        p.graph.nodes = {{"in", "Input", "in", {{"shape", IntList{7, 7, 64}}}, 0, 0},
                         {"fc", "Dense", "fc", {{"units", std::int64_t(10)}}, 250, 0}};
        p.graph.edges = {{{"in", 0}, {"fc", 0}}};
        doc_->reset(p, {});
        NodeItem* fc = scene_->nodeItem("fc");
        QVERIFY(fc->badge()->isVisible());
        QCOMPARE(fc->badge()->toolTip(), QString("Dense expects 2-D input, got (?, 7, 7, 64): add Flatten"));
        QVERIFY(!scene_->nodeItem("in")->badge()->isVisible());
        // a parameter edit that breaks the Add in the template shows on the Add's badge
        loadTemplate(*doc_);
        doc_->push(new SetParamCommand(doc_, "dense_skip", "units", ParamValue(std::int64_t(50))));
        QCOMPARE(scene_->nodeItem("add")->badge()->toolTip(), QString("Add needs inputs of one shape, got (?, 100) and (?, 50)"));
        doc_->undoStack()->undo();
        QVERIFY(!scene_->nodeItem("add")->badge()->isVisible());
    }

    void copyPasteRenamesUniquely() {
        loadTemplate(*doc_);
        scene_->selectNodes({"flatten", "dense"});
        copySelection(scene_);
        QVERIFY(pasteClipboard(scene_));
        const Graph& g = doc_->graph();
        QCOMPARE(g.nodes.size(), std::size_t(10));
        QCOMPARE(g.nodes[8].name, std::string("flatten_1"));
        QCOMPARE(g.nodes[9].name, std::string("dense_1"));
        QCOMPARE(g.edges.back(), (Edge{{"flatten_1", 0}, {"dense_1", 0}}));
        QCOMPARE(scene_->selectedNodeIds(), (std::vector<std::string>{"flatten_1", "dense_1"}));
        QVERIFY(pasteClipboard(scene_));  // again: flatten_2, dense_2
        QCOMPARE(doc_->graph().nodes.back().name, std::string("dense_2"));
        duplicateSelection(scene_);
        QCOMPARE(doc_->graph().nodes.size(), std::size_t(14));
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(doc_->graph().nodes.size(), std::size_t(8));
    }

    void cutAndDeleteWithEdges() {
        loadTemplate(*doc_);
        const QString before = doc_->serialized();
        scene_->selectNodes({"add"});
        deleteSelection(scene_);
        QCOMPARE(doc_->graph().edges.size(), std::size_t(5));
        QCOMPARE(scene_->edgeCount(), std::size_t(5));
        QVERIFY(!scene_->nodeItem("add"));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->serialized(), before);
        scene_->selectNodes({"relu"});
        cutSelection(scene_);
        QVERIFY(!doc_->graph().find("relu"));
        QVERIFY(pasteClipboard(scene_));
        QVERIFY(doc_->graph().find("relu"));  // the name is free again
    }

    void deleteSelectedEdge() {
        loadTemplate(*doc_);
        Edge e{{"dense", 0}, {"add", 0}};
        scene_->clearSelection();
        scene_->edgeItem(e)->setSelected(true);
        deleteSelection(scene_);
        QCOMPARE(doc_->graph().edges.size(), std::size_t(7));
        QVERIFY(doc_->graph().find("dense"));
    }

    void selectAllAndMove() {
        loadTemplate(*doc_);
        selectAll(scene_);
        QCOMPARE(scene_->selectedNodeIds().size(), std::size_t(8));
        QTest::keyClick(view_, Qt::Key_Right);
        QTest::keyClick(view_, Qt::Key_Right);
        QCOMPARE(doc_->undoStack()->count(), 1);  // consecutive nudges merge
        QCOMPARE(doc_->graph().find("input")->x, 40.0);
    }

    void autoLayoutHasNoCrossings() {
        loadTemplate(*doc_);
        autoLayout(scene_, LayoutDirection::LeftToRight);
        auto at = layeredLayout(doc_->graph(), LayoutDirection::LeftToRight);
        QCOMPARE(countCrossings(doc_->graph(), at, LayoutDirection::LeftToRight), 0);
        QVERIFY(at["input"].x() < at["flatten"].x());
        QCOMPARE(at["dense"].x(), at["dense_skip"].x());
        QCOMPARE(scene_->nodeItem("add")->pos(), at["add"]);
    }

    void zoomAndFit() {
        loadTemplate(*doc_);
        double z = view_->zoom();
        view_->zoomIn();
        QVERIFY(view_->zoom() > z);
        view_->fitToView();
        QVERIFY(view_->mapToScene(view_->viewport()->rect()).boundingRect().contains(scene_->itemsBoundingRect()));
    }
};

QTEST_MAIN(TestCanvas)
#include "test_canvas.moc"
