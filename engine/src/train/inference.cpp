// Inference, and the batch loops it shares with the Trainer (its evaluate / predict and the
// validation at each epoch's end).
#include "layerforge/train/inference.h"

#include "layerforge/core/error.h"
#include "layerforge/train/data_fit.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "train/batch_runs.h"
#include "train/configured.h"
#include "train/data_parallel.h"
#include "train/plan_cache.h"

namespace lf {

PlanSlot& feed(PlanCache& plans, const BatchView& batch, bool training) { return feed(plans, batch, training, {}); }

PlanSlot& feed(PlanCache& plans, const BatchView& batch, bool training, const BatchPart& part) {
    PlanSlot& slot = plans.get(batch.count, training, part);
    slot.plan->set_input(batch.images);
    return slot;
}

void update_metrics(const std::vector<std::unique_ptr<Metric>>& metrics, const PlanSlot& slot,
                    const std::int32_t* labels, std::int64_t count) {
    for (auto& m : metrics) m->update(slot.loss.output(), labels, count, slot.plan->output_width());
}

namespace {

// Runs the model over every sample in order, calling visit(slot, labels, count) per batch with
// the output downloaded into slot.loss.
template <class Visit>
void for_each_batch(BatchSource& source, PlanCache& plans, Visit visit) {
    source.start_epoch(1);
    const bool split = source.shard().split();  // counts its steps: a part may be empty
    for (std::int64_t k = 0, n = source.steps_per_epoch(); !split || k < n; ++k) {
        const BatchView b = source.next();
        if (!b.count) {
            if (split) continue;
            break;
        }
        PlanSlot& slot = feed(plans, b, false);
        slot.plan->forward();
        slot.loss.read();
        visit(slot, b.labels, b.count);
    }
}

}  // namespace

EvalResult evaluate_batches(BatchSource& source, PlanCache& plans, const Loss& loss,
                            const std::vector<std::unique_ptr<Metric>>& metrics, DataParallel* parallel) {
    EvalResult r;
    for (auto& m : metrics) m->reset();
    if (parallel) {  // every rank evaluates its part of the data with rank 0's weights
        const Communicator& c = parallel->comm();
        source.set_shard({c.rank(), c.size()});
        plans.device().pull_weights();
        parallel->broadcast_moving_statistics();
        plans.device().push_weights();
    }
    double loss_sum = 0;
    for_each_batch(source, plans, [&](PlanSlot& p, const std::int32_t* labels, std::int64_t count) {
        loss_sum += p.loss.value(loss, labels) * double(count);
        update_metrics(metrics, p, labels, count);
        r.samples += count;
    });
    if (parallel) parallel->reduce_evaluation(loss_sum, r.samples, metrics);
    if (r.samples == 0) return r;
    r.metrics.emplace_back("loss", loss_sum / double(r.samples));
    for (auto& m : metrics) r.metrics.emplace_back(m->name(), m->result());
    return r;
}

std::vector<float> predict_batches(BatchSource& source, PlanCache& plans) {
    std::vector<float> out;
    for_each_batch(source, plans, [&](PlanSlot& p, const std::int32_t*, std::int64_t count) {
        out.insert(out.end(), p.loss.output(), p.loss.output() + count * p.plan->output_width());
    });
    return out;
}

Inference::Inference(Model& model, const TrainingConfig& config, const std::string& device)
    : model_(model), batch_size_(config.batch_size) {
    using train_detail::configured;
    model_.input_node();
    model_.output_node();
    train_detail::make_loss_and_metrics(config, loss_, metrics_);
    if (config.batch_size < 1) throw input_error("training.batch_size: must be at least 1");
    plans_ = std::make_unique<PlanCache>(model_, device, config, nullptr);
}

Inference::~Inference() = default;

EvalResult Inference::evaluate(const TensorDataset& data) {
    check_dataset(data, "evaluation");
    TensorSource source(data, batch_size_, false, 0);
    return evaluate(source);
}

EvalResult Inference::evaluate(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "evaluation");
    plans_->device().push_weights();
    return evaluate_batches(data, *plans_, *loss_, metrics_);
}

std::vector<float> Inference::predict(const TensorDataset& data) {
    check_dataset(data, "prediction");
    TensorSource source(data, batch_size_, false, 0);
    return predict(source);
}

std::vector<float> Inference::predict(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "prediction");
    plans_->device().push_weights();
    return predict_batches(data, *plans_);
}

void Inference::check_source(const Shape& shape, std::size_t class_count, const char* what) const {
    require_source_fit(model_, shape, class_count, what);
}

void Inference::check_dataset(const TensorDataset& d, const char* what) const { require_dataset_fit(model_, d, what); }

}  // namespace lf
