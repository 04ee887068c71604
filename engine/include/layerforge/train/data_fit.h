#pragma once
// Does a model fit a data set? Its Input layer should take the samples' shape, and its output
// have one unit per class (one unit: a binary classifier). The trainer refuses data it cannot
// train on (require_data_fit); the studio's dataset panel offers or warns before a run.
#include <cstdint>
#include <optional>
#include <string>

#include "layerforge/core/shape.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/graph/model.h"

namespace lf {

struct DataFit {
    std::string input_node, output_node;  // empty unless the graph has exactly one of each
    // The layer whose units set the output's width, the one to edit: the output, or the last
    // layer before it that changes the shape (a Softmax or Dropout at the end is passed over).
    std::string units_node;
    std::optional<Shape> input;    // what the Input layer takes, when known
    std::optional<Shape> samples;  // what the data gives; not checked when unknown
    std::int64_t units = 0;    // the output layer's width; 0 when unknown
    std::int64_t classes = 0;  // the data's class count; 0 when unknown (not checked)

    bool input_fits() const { return !samples || input == samples; }
    // Labels the output cannot express: more classes than units (one unit takes two classes).
    bool too_few_units() const { return units > 1 && classes > units; }
    // One unit per class exactly: what the dataset panel asks for.
    bool units_fit() const { return units == 0 || classes == 0 || units == classes || (units == 1 && classes == 2); }
};

// From the analysis alone, so it also answers for a graph that is still being edited (the
// output is unknown while it is not valid).
DataFit data_fit(const Graph& g, const Analysis& a, std::optional<Shape> samples, std::int64_t classes);

// Throws lf::Error (Input) when the samples do not fit the Input layer or the output has too
// few units; `what` names the data ("training", "validation", ...).
void require_data_fit(const DataFit& fit, const std::string& what);

// The same for a model about to run on samples of `shape` with `classes` classes (the model
// must have exactly one Input and one output: otherwise the error names them), and for an
// in-memory data set, whose labels must also be in the output's range.
void require_source_fit(const Model& model, const Shape& shape, std::size_t classes, const std::string& what);
void require_dataset_fit(const Model& model, const TensorDataset& d, const std::string& what);

}  // namespace lf
