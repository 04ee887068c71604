#pragma once
// Does the model on the canvas fit the bound dataset? The engine's answer (train/data_fit.h)
// as the dataset panel shows it: the Input node should take the images' shape (offered as an
// undoable edit of its `shape`), and the output layer should have one unit per class (a
// warning naming the node).
#include <QString>
#include <optional>
#include <string>

#include "dataset/dataset_summary.h"

namespace lf::ui {

class ProjectDocument;

struct InputShapeOffer {
    std::string node;        // the Input node's id
    IntList current, wanted; // (height, width, channels)
    QString message;
};

// The graph's only Input node; null when it has none or several (not a model this panel checks).
const Node* singleInput(const Graph& graph);
// Its `shape` parameter; empty when unset.
IntList inputShape(const Node& input);
// "(28, 28, 1)"
QString shapeText(const IntList& shape);

// Empty when the graph has no single Input or its shape already matches.
std::optional<InputShapeOffer> inputShapeOffer(const ProjectDocument& doc, const ImageShape& dataset);
// Sets the Input node's shape (one SetParamCommand on the document's undo stack).
void applyInputShape(ProjectDocument* doc, const InputShapeOffer& offer);

// Empty when the output layer's units match `classes` (or the output is not known yet).
QString classCountWarning(const ProjectDocument& doc, int classes);

}  // namespace lf::ui
