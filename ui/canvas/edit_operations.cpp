#include "canvas/edit_operations.h"

#include <algorithm>
#include <optional>

#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>

#include "canvas/canvas_scene.h"
#include "canvas/node_item.h"
#include "document/add_nodes.h"
#include "document/change_groups.h"
#include "document/fragment.h"
#include "document/move_nodes.h"
#include "document/remove_nodes.h"
#include "layerforge/core/error.h"

namespace lf::ui {

namespace {

constexpr double kPasteOffset = 40, kCardHeight = 80, kCardGap = 20;

QRectF cardAt(const Node& n, QPointF offset) { return QRectF(n.x + offset.x(), n.y + offset.y(), NodeItem::kWidth, kCardHeight); }

// The first offset, stepping down a card at a time, where no pasted card covers one already
// there: a duplicate lands beside its original, and a second paste beside the first.
QPointF freeOffset(const Graph& existing, const Graph& fragment) {
    auto overlaps = [&](QPointF offset) {
        for (const Node& f : fragment.nodes)
            for (const Node& e : existing.nodes)
                if (cardAt(f, offset).intersects(cardAt(e, {}))) return true;
        return false;
    };
    QPointF offset(kPasteOffset, kPasteOffset);
    for (int step = 0; step < 200 && overlaps(offset); ++step) offset.ry() += kCardHeight + kCardGap;
    return offset;
}

std::set<std::string> selectedSet(CanvasScene* scene) {
    auto ids = scene->selectedNodeIds();
    return {ids.begin(), ids.end()};
}

void addFragment(CanvasScene* scene, Graph fragment, std::optional<QPointF> offset, const QString& text) {
    ProjectDocument* doc = scene->document();
    const QPointF shift = offset ? *offset : freeOffset(doc->graph(), fragment);
    fragment = uniqueFragment(*doc, std::move(fragment), shift);
    std::vector<std::string> ids;
    for (const Node& n : fragment.nodes) ids.push_back(n.id);
    doc->push(new AddNodesCommand(doc, std::move(fragment), text));
    scene->selectNodes(ids);
}

}  // namespace

void copySelection(CanvasScene* scene) {
    Graph fragment = selectionFragment(scene->document()->graph(), selectedSet(scene));
    if (fragment.nodes.empty()) return;
    QString json = fragmentToJson(fragment);
    auto* mime = new QMimeData;
    mime->setData(kGraphMimeType, json.toUtf8());
    mime->setText(json);
    QGuiApplication::clipboard()->setMimeData(mime);
}

void cutSelection(CanvasScene* scene) {
    ProjectDocument* doc = scene->document();
    auto ids = scene->selectedNodeIds();
    if (ids.empty()) return;
    copySelection(scene);
    doc->push(new RemoveNodesCommand(doc, ids, {}, QObject::tr("Cut")));
}

bool pasteClipboard(CanvasScene* scene, QString* error) {
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (!mime) return false;
    QString json = mime->hasFormat(kGraphMimeType) ? QString::fromUtf8(mime->data(kGraphMimeType)) : mime->text();
    std::optional<Graph> fragment = fragmentFromJson(json, error);
    if (!fragment || fragment->nodes.empty()) return false;
    addFragment(scene, std::move(*fragment), std::nullopt, QObject::tr("Paste"));
    return true;
}

void duplicateSelection(CanvasScene* scene) {
    Graph fragment = selectionFragment(scene->document()->graph(), selectedSet(scene));
    if (fragment.nodes.empty()) return;
    addFragment(scene, std::move(fragment), std::nullopt, QObject::tr("Duplicate"));
}

void deleteSelection(CanvasScene* scene) {
    ProjectDocument* doc = scene->document();
    auto ids = scene->selectedNodeIds();
    auto edges = scene->selectedEdges();
    if (ids.empty() && edges.empty()) return;
    doc->push(new RemoveNodesCommand(doc, ids, edges, QObject::tr("Delete")));
}

void groupSelection(CanvasScene* scene) {
    if (auto* command = groupNodesCommand(scene->document(), scene->selectedNodeIds())) scene->document()->push(command);
}

void ungroupSelection(CanvasScene* scene) {
    if (auto* command = ungroupCommand(scene->document(), scene->selectedGroupIds())) scene->document()->push(command);
}

void toggleCollapsed(CanvasScene* scene) {
    ProjectDocument* doc = scene->document();
    const std::vector<std::string> ids = scene->selectedGroupIds();
    bool allCollapsed = !ids.empty();
    for (const NodeGroup& g : doc->graph().groups)
        if (std::find(ids.begin(), ids.end(), g.id) != ids.end()) allCollapsed = allCollapsed && g.collapsed;
    doc->undoStack()->beginMacro(allCollapsed ? QObject::tr("Expand") : QObject::tr("Collapse"));
    for (const std::string& id : ids)
        if (auto* command = setCollapsedCommand(doc, id, !allCollapsed)) doc->push(command);
    doc->undoStack()->endMacro();
}

void selectAll(CanvasScene* scene) {
    for (QGraphicsItem* item : scene->items())
        if (item->type() == NodeItem::Type) item->setSelected(true);
}

void autoLayout(CanvasScene* scene, LayoutDirection direction) {
    ProjectDocument* doc = scene->document();
    if (doc->graph().nodes.empty()) return;
    doc->push(new MoveNodesCommand(doc, layeredLayout(doc->graph(), direction), QObject::tr("Auto-layout"), false));
}

void autoLayoutToFit(CanvasScene* scene, QSizeF view) {
    ProjectDocument* doc = scene->document();
    if (doc->graph().nodes.empty()) return;
    doc->push(new MoveNodesCommand(doc, wrappedLayout(doc->graph(), view), QObject::tr("Auto-layout"), false));
}

bool insertTemplate(CanvasScene* scene, const QString& path, QString* error) {
    try {
        Project p = load_project(path.toStdString());
        QRectF bounds = scene->itemsBoundingRect();
        QPointF offset = bounds.isEmpty() ? QPointF() : QPointF(0, bounds.bottom() + 80);
        addFragment(scene, std::move(p.graph), offset, QObject::tr("Insert template"));
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace lf::ui
