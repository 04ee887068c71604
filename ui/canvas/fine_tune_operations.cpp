#include "canvas/fine_tune_operations.h"

#include <set>

#include "document/replace_graph.h"
#include "document/set_trainable.h"
#include "layerforge/core/error.h"
#include "layerforge/data/scan.h"
#include "layerforge/graph/fine_tune.h"

namespace lf::ui {

namespace {

QString nameOf(const ProjectDocument* doc, const std::string& node) {
    const Node* n = doc->graph().find(node);
    return QString::fromStdString(n ? n->name : node);
}

QString noClassFolders(const std::string& folder) {
    return QObject::tr("the image folder %1 has no class folders").arg(QString::fromStdString(folder));
}

}  // namespace

void freezeUpToHere(ProjectDocument* doc, const std::string& node) {
    if (!doc->graph().find(node)) return;
    const std::vector<std::string> up = nodes_up_to(doc->graph(), node);
    const std::set<std::string> frozen(up.begin(), up.end());
    std::map<std::string, bool> flags;
    for (const Node& n : doc->graph().nodes) flags[n.id] = !frozen.count(n.id);
    auto* c = new SetTrainableCommand(doc, flags, QObject::tr("Freeze up to %1").arg(nameOf(doc, node)));
    if (c->changesAnything()) doc->push(c);
    else delete c;
}

bool freezeBlock(ProjectDocument* doc, const std::string& node) {
    const NodeGroup* g = doc->graph().group_of(node);
    if (!g) return false;
    std::map<std::string, bool> flags;
    for (const std::string& id : g->nodes) flags[id] = false;
    auto* c = new SetTrainableCommand(doc, flags, QObject::tr("Freeze block %1").arg(QString::fromStdString(g->name)));
    if (c->changesAnything()) doc->push(c);
    else delete c;
    return true;
}

std::int64_t boundClassCount(const Project& p, QString* error) {
    if (!p.dataset.classes.empty()) return std::int64_t(p.dataset.classes.size());
    if (p.dataset.kind == "fashion-mnist") return 10;
    try {
        const std::int64_t n = std::int64_t(scan_image_folder(p.dataset.path).class_names.size());
        if (n > 0) return n;
        if (error) *error = noClassFolders(p.dataset.path);
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
    }
    return 0;
}

bool replaceHead(ProjectDocument* doc, const std::string& node, QString* error) {
    const std::int64_t classes = boundClassCount(doc->project(), error);
    if (classes == 0) return false;
    try {
        HeadReplacement r = replace_head(doc->graph(), node, classes);
        doc->push(new ReplaceGraphCommand(doc, std::move(r.graph),
                                          QObject::tr("Replace head after %1 (%2 classes)").arg(nameOf(doc, node)).arg(classes)));
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace lf::ui
