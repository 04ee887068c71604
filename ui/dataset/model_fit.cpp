#include "dataset/model_fit.h"

#include <QObject>

#include "document/project_document.h"
#include "document/set_param.h"
#include "layerforge/train/data_fit.h"

namespace lf::ui {

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
    if (data_fit(doc.graph(), doc.analysis(), Shape(offer.wanted), 0).input_fits()) return std::nullopt;
    offer.message = QObject::tr("The Input node '%1' takes %2, but the dataset's images are %3.")
                        .arg(QString::fromStdString(input->name), shapeText(offer.current), shapeText(offer.wanted));
    return offer;
}

void applyInputShape(ProjectDocument* doc, const InputShapeOffer& offer) {
    doc->push(new SetParamCommand(doc, offer.node, "shape", ParamValue(offer.wanted)));
}

QString classCountWarning(const ProjectDocument& doc, int classes) {
    const DataFit fit = data_fit(doc.graph(), doc.analysis(), std::nullopt, classes);
    if (fit.units_fit()) return {};
    const Node* node = doc.graph().find(fit.units_node);
    const QString text =
        node->type == "Dense"
            ? QObject::tr("The last Dense layer '%1' has %2 units, but the dataset has %3 classes: set its units to %3.")
            : QObject::tr("The output layer '%1' has %2 units, but the dataset has %3 classes: set the last layer's units to %3.");
    return text.arg(QString::fromStdString(node->name))
        .arg(fit.units)
        .arg(classes);
}

}  // namespace lf::ui
