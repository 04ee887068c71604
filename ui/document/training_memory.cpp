#include "document/training_memory.h"

#include "document/project_document.h"
#include "layerforge/core/error.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

constexpr std::size_t kFiguresKept = 32;

// On the worker thread, from copies: what the engine can say about this project (nothing when
// the graph or the optimizer settings are not valid; out of memory, or a bug: unknown, not fatal).
template <class Result>
Result estimate(const Project& p) {
    Result r;
    try {
        const MemoryBreakdown m = estimate_training_memory(p);
        r.bytes = std::int64_t(m.total());
        if (m.lower_bound) return r;  // no kernels chosen for a plan that cannot fit
        for (const LayerProfile& step : describe_training_plan(p)) r.compute[step.node] = step.compute;
    } catch (const std::exception&) {
    }
    return r;
}

}  // namespace

TrainingMemoryEstimate::TrainingMemoryEstimate(ProjectDocument* doc) : QObject(doc), doc_(doc) {
    connect(doc_, &ProjectDocument::changed, this, &TrainingMemoryEstimate::onChanged);
    request();
}

TrainingMemoryEstimate::Key TrainingMemoryEstimate::current() const {
    const TrainingConfig& t = doc_->project().training;
    return {revision_, t.batch_size, t.optimizer, t.precision};
}

const TrainingMemoryEstimate::Figure* TrainingMemoryEstimate::lookup(const Key& key) const {
    for (const Figure& f : known_)
        if (f.key == key) return &f;
    return nullptr;
}

std::optional<std::int64_t> TrainingMemoryEstimate::bytes() const {
    const Figure* f = lookup(current());
    return f ? f->result.bytes : std::nullopt;
}

const std::map<std::string, DType>& TrainingMemoryEstimate::computeTypes() const {
    static const std::map<std::string, DType> none;
    const Figure* f = lookup(current());
    return f ? f->result.compute : none;
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
    if (!doc_->analysis().ok()) return remember({key, {}});  // nothing to ask the engine
    Project p;
    p.graph = doc_->graph();
    p.training = doc_->project().training;
    running_ = true;
    runInBackground(this, [p] { return estimate<Result>(p); }, [this, key](Result result) {
        running_ = false;
        remember({key, std::move(result)});
        request();  // the document may have changed meanwhile
        Q_EMIT changed();
    });
}

void TrainingMemoryEstimate::remember(Figure f) {
    if (known_.size() >= kFiguresKept) known_.erase(known_.begin());
    known_.push_back(std::move(f));
}

}  // namespace lf::ui
