// The studio's fine-tuning edits: the inspector's Trainable check box, the canvas layer menu's
// Freeze up to here / Freeze block / Replace head, each one undo step, and frozen cards that
// say so.
#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QCheckBox>
#include <QMenu>
#include <QtTest>

#include <memory>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edit_operations.h"
#include "canvas/fine_tune_operations.h"
#include "canvas/node_item.h"
#include "inspector/inspector.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

std::map<std::string, bool> trainableFlags(const ProjectDocument& doc) {
    std::map<std::string, bool> out;
    for (const Node& n : doc.graph().nodes) out[n.id] = n.trainable;
    return out;
}

QAction* action(QMenu* menu, const QString& startsWith) {
    for (QAction* a : menu->actions())
        if (a->text().startsWith(startsWith)) return a;
    return nullptr;
}

}  // namespace

class TestFineTuneUi : public QObject {
    Q_OBJECT
    std::unique_ptr<ProjectDocument> doc_;
    std::unique_ptr<CanvasScene> scene_;
    std::unique_ptr<CanvasView> view_;

private Q_SLOTS:
    void init() {
        doc_ = std::make_unique<ProjectDocument>();
        loadTemplate(*doc_);  // input, flatten, dense + dense_skip, add, relu, dense_out, softmax
        scene_ = std::make_unique<CanvasScene>(doc_.get());
        view_ = std::make_unique<CanvasView>(scene_.get());
    }
    void cleanup() {
        view_.reset();
        scene_.reset();
        doc_.reset();
    }

    void theInspectorCheckBoxFreezesALayerInOneUndoStep() {
        Inspector inspector(doc_.get());
        inspector.setNode("dense");
        QVERIFY(inspector.trainableCheck()->isChecked());
        const std::int64_t trainable = doc_->analysis().trainable_params;
        inspector.trainableCheck()->setChecked(false);
        QVERIFY(!doc_->graph().find("dense")->trainable);
        QCOMPARE(doc_->analysis().trainable_params, trainable - doc_->analysis().nodes.at("dense").param_count);
        QCOMPARE(doc_->undoStack()->count(), 1);
        QVERIFY(scene_->nodeItem("dense")->detailText().endsWith("frozen"));
        QVERIFY(!scene_->nodeItem("dense_out")->detailText().contains("frozen"));
        doc_->undoStack()->undo();
        QVERIFY(doc_->graph().find("dense")->trainable);
        QVERIFY(inspector.trainableCheck()->isChecked());
        QVERIFY(!scene_->nodeItem("dense")->detailText().contains("frozen"));
    }

    void rightClickOnALayerSelectsItAndOpensItsMenu() {
        view_->resize(900, 600);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        NodeItem* card = scene_->nodeItem("dense");
        view_->centerOn(card);
        const QPoint at = view_->mapFromScene(card->sceneBoundingRect().center());
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, view_->viewport()->mapToGlobal(at));
        QApplication::sendEvent(view_->viewport(), &event);
        QCOMPARE(scene_->selectedNodeIds(), std::vector<std::string>{"dense"});
        QMenu* menu = view_->findChild<QMenu*>();
        QVERIFY(menu && action(menu, "Freeze up to here"));
        menu->close();
    }

    void freezeUpToHereFreezesTheLayerAndItsAncestors() {
        std::unique_ptr<QMenu> menu(view_->layerMenu("relu"));
        action(menu.get(), "Freeze up to here")->trigger();
        const std::map<std::string, bool> want{{"input", false}, {"flatten", false},  {"dense", false},
                                               {"dense_skip", false}, {"add", false},  {"relu", false},
                                               {"dense_out", true},   {"softmax", true}};
        QCOMPARE(trainableFlags(*doc_), want);
        QCOMPARE(doc_->undoStack()->count(), 1);
        doc_->undoStack()->undo();
        for (const auto& [id, trainable] : trainableFlags(*doc_)) QVERIFY2(trainable, id.c_str());
    }

    void freezeBlockFreezesItsGroupOnly() {
        std::unique_ptr<QMenu> outside(view_->layerMenu("dense"));
        QVERIFY(!action(outside.get(), "Freeze block")->isEnabled());  // in no block yet
        scene_->selectNodes({"dense", "dense_skip"});
        groupSelection(scene_.get());
        const int before = doc_->undoStack()->count();
        std::unique_ptr<QMenu> menu(view_->layerMenu("dense_skip"));
        QAction* block = action(menu.get(), "Freeze block");
        QVERIFY(block->isEnabled());
        block->trigger();
        for (const auto& [id, trainable] : trainableFlags(*doc_))
            QCOMPARE(trainable, id != "dense" && id != "dense_skip");
        QCOMPARE(doc_->undoStack()->count(), before + 1);
    }

    void replaceHeadIsOneUndoStep() {
        const QString original = doc_->serialized();
        std::unique_ptr<QMenu> menu(view_->layerMenu("relu"));
        QAction* head = action(menu.get(), "Replace head");
        QVERIFY(head && head->isEnabled());
        QVERIFY2(head->text().contains("10 classes"), qPrintable(head->text()));  // Fashion-MNIST is bound
        head->trigger();
        QCOMPARE(doc_->undoStack()->count(), 1);
        QVERIFY(!doc_->graph().find("dense_out") && !doc_->graph().find("softmax"));
        QVERIFY(doc_->analysis().ok());
        // relu outputs a vector: the new head is one Dense(10, softmax) fed by it.
        const Node& last = doc_->graph().nodes.back();
        QCOMPARE(last.type, std::string("Dense"));
        QCOMPARE(std::get<std::int64_t>(last.params.at("units")), std::int64_t(10));
        QCOMPARE(doc_->graph().inputs_of(last.id).at(0).from.node, std::string("relu"));
        QVERIFY(scene_->nodeItem(last.id));
        QVERIFY(!scene_->nodeItem("softmax"));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->serialized(), original);
        QVERIFY(scene_->nodeItem("softmax"));
    }

    void frozenStateIsSavedInTheProject() {
        freezeUpToHere(doc_.get(), "flatten");
        const Project p = parse_project(doc_->serialized().toStdString());
        QVERIFY(!p.graph.find("input")->trainable && !p.graph.find("flatten")->trainable);
        QVERIFY(p.graph.find("dense")->trainable);
    }
};

QTEST_MAIN(TestFineTuneUi)
#include "test_fine_tune_ui.moc"
