#include "dataset/model_fit.h"

#include <QObject>

#include "document/project_document.h"
#include "document/set_param.h"

namespace lf::ui {

namespace {

std::optional<std::int64_t> resolvedInt(const ProjectDocument& doc, const std::string& node, const char* param) {
    auto info = doc.analysis().nodes.find(node);
    if (info == doc.analysis().nodes.end()) return std::nullopt;
    auto it = info->second.params.find(param);
    if (it == info->second.params.end() || !std::holds_alternative<std::int64_t>(it->second)) return std::nullopt;
    return std::get<std::int64_t>(it->second);
}

}  // namespace

QString shapeText(const IntList& s) {
    QStringList parts;
    for (std::int64_t d : s) parts << QString::number(d);
    return "(" + parts.join(", ") + ")";
}

const Node* singleInput(const Graph& g) {
    const Node* input = nullptr;
    for (const Node& n : g.nodes) {
        if (n.type != "Input") continue;
        if (input) return nullptr;
        input = &n;
    }
    return input;
}

IntList inputShape(const Node& input) {
    auto it = input.params.find("shape");
    return it != input.params.end() && std::holds_alternative<IntList>(it->second) ? std::get<IntList>(it->second) : IntList{};
}

std::optional<InputShapeOffer> inputShapeOffer(const ProjectDocument& doc, const ImageShape& dataset) {
    const Node* input = singleInput(doc.graph());
    if (!input) return std::nullopt;
    InputShapeOffer offer;
    offer.node = input->id;
    offer.wanted = {dataset.height, dataset.width, dataset.channels};
    offer.current = inputShape(*input);
    if (offer.current == offer.wanted) return std::nullopt;
    offer.message = QObject::tr("The Input node '%1' takes %2, but the dataset's images are %3.")
                        .arg(QString::fromStdString(input->name), shapeText(offer.current), shapeText(offer.wanted));
    return offer;
}

void applyInputShape(ProjectDocument* doc, const InputShapeOffer& offer) {
    doc->push(new SetParamCommand(doc, offer.node, "shape", ParamValue(offer.wanted)));
}

std::string lastDenseNode(const ProjectDocument& doc) {
    const std::vector<std::string>& order = doc.analysis().order;
    for (auto id = order.rbegin(); id != order.rend(); ++id)
        if (const Node* n = doc.graph().find(*id); n && n->type == "Dense") return n->id;
    return {};
}

QString classCountWarning(const ProjectDocument& doc, int classes) {
    const std::string id = lastDenseNode(doc);
    const std::optional<std::int64_t> units = id.empty() ? std::nullopt : resolvedInt(doc, id, "units");
    if (!units || classes <= 0 || *units == classes) return {};
    return QObject::tr("The last Dense layer '%1' has %2 units, but the dataset has %3 classes: set its units to %3.")
        .arg(QString::fromStdString(doc.graph().find(id)->name))
        .arg(*units)
        .arg(classes);
}

}  // namespace lf::ui
