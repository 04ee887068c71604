#include "document/training_memory.h"

#include "document/project_document.h"
#include "layerforge/core/error.h"
#include "layerforge/train/memory_budget.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

constexpr std::size_t kFiguresKept = 32;

// On the worker thread, from copies: nullopt when the engine cannot estimate this project.
std::optional<std::int64_t> estimate(const Project& p) {
    try {
        return std::int64_t(estimate_training_memory(p).total());
    } catch (const Error&) {  // the graph or the optimizer settings are not valid
        return std::nullopt;
    } catch (const std::exception&) {  // out of memory, or a bug: the figure is unknown, not fatal
        return std::nullopt;
    }
}

}  // namespace

TrainingMemoryEstimate::TrainingMemoryEstimate(ProjectDocument* doc) : QObject(doc), doc_(doc) {
    connect(doc_, &ProjectDocument::changed, this, &TrainingMemoryEstimate::onChanged);
    request();
}

TrainingMemoryEstimate::Key TrainingMemoryEstimate::current() const {
    return {revision_, doc_->project().training.batch_size, doc_->project().training.optimizer};
}

const TrainingMemoryEstimate::Figure* TrainingMemoryEstimate::lookup(const Key& key) const {
    for (const Figure& f : known_)
        if (f.key == key) return &f;
    return nullptr;
}

std::optional<std::int64_t> TrainingMemoryEstimate::bytes() const {
    const Figure* f = lookup(current());
    return f ? f->bytes : std::nullopt;
}

void TrainingMemoryEstimate::onChanged(const DocumentChange& change) {
    if (change.kind == DocumentChange::NodesMoved || change.kind == DocumentChange::GroupsChanged) return;
    if (change.kind != DocumentChange::SettingsChanged) ++revision_;  // the graph may differ
    request();
    Q_EMIT changed();
}

void TrainingMemoryEstimate::request() {
    if (running_ || lookup(current())) return;
    const Key key = current();
    if (!doc_->analysis().ok()) return remember({key, std::nullopt});  // nothing to ask the engine
    Project p;
    p.graph = doc_->graph();
    p.training = doc_->project().training;
    running_ = true;
    runInBackground(this, [p] { return estimate(p); }, [this, key](std::optional<std::int64_t> bytes) {
        running_ = false;
        remember({key, bytes});
        request();  // the document may have changed meanwhile
        Q_EMIT changed();
    });
}

void TrainingMemoryEstimate::remember(Figure f) {
    if (known_.size() >= kFiguresKept) known_.erase(known_.begin());
    known_.push_back(std::move(f));
}

}  // namespace lf::ui
