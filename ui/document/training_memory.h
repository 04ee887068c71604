#pragma once
// The training-memory figure the status bar and the model summary show: the engine's estimate
// for the document's graph, optimizer, batch size and precision (estimate_training_memory, the
// figure `layerforge-cli info` prints), and the type each layer computes in under that precision
// (describe_training_plan, `info`'s per-layer list). Choosing the kernels for them takes
// milliseconds to tens of milliseconds, so they run on a worker thread, one estimate at a time,
// and the results are kept per (graph revision, batch size, optimizer, precision): the UI thread
// never waits on the engine, and going back to a batch size or undoing a change in the settings
// reuses the figure.
#include <QObject>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/project/project.h"

namespace lf::ui {

class ProjectDocument;
struct DocumentChange;

class TrainingMemoryEstimate : public QObject {
    Q_OBJECT
public:
    explicit TrainingMemoryEstimate(ProjectDocument* doc);  // a child of the document

    // Bytes for the document as it is now; nullopt while pending() or when the graph or the
    // optimizer settings are not valid.
    std::optional<std::int64_t> bytes() const;
    // Node id -> the type its kernel computes in; empty while pending() or when unknown (an invalid
    // graph, a plan too large for the device).
    const std::map<std::string, DType>& computeTypes() const;
    bool pending() const { return !lookup(current()); }

Q_SIGNALS:
    void changed();  // bytes() or pending() changed

private:
    struct Key {
        quint64 revision = 0;
        std::int64_t batch = 0;
        NamedConfig optimizer;
        Precision precision = Precision::Float32;
        bool operator==(const Key&) const = default;
    };
    struct Result {
        std::optional<std::int64_t> bytes;
        std::map<std::string, DType> compute;
    };
    struct Figure {
        Key key;
        Result result;
    };
    Key current() const;
    const Figure* lookup(const Key& key) const;
    void onChanged(const DocumentChange& change);
    void request();  // starts an estimate of current() unless one is known or running
    void remember(Figure f);

    ProjectDocument* doc_;
    quint64 revision_ = 0;  // counts the edits that can change the estimate
    bool running_ = false;
    std::vector<Figure> known_;  // newest last, a few dozen at most
};

}  // namespace lf::ui
