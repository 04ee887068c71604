// Inference, and the batch loops it shares with the Trainer (its evaluate / predict and the
// validation at each epoch's end).
#include "layerforge/train/inference.h"

#include <cstring>

#include "layerforge/core/error.h"
#include "layerforge/graph/plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "train/batch_runs.h"
#include "train/configured.h"
#include "train/plan_cache.h"

namespace lf {

Plan& feed(PlanCache& plans, const BatchView& batch, std::size_t sample_elements, bool training) {
    Plan& plan = plans.get(batch.count, training);
    std::memcpy(plan.input(), batch.images, std::size_t(batch.count) * sample_elements * sizeof(float));
    return plan;
}

void update_metrics(const std::vector<std::unique_ptr<Metric>>& metrics, const Plan& plan,
                    const std::int32_t* labels, std::int64_t count) {
    for (auto& m : metrics) m->update(plan.output(), labels, count, plan.output_width());
}

namespace {

// Runs the model over every sample in order, calling visit(plan, labels, count) per batch.
template <class Visit>
void for_each_batch(BatchSource& source, PlanCache& plans, Visit visit) {
    const std::size_t width = std::size_t(source.sample_shape().elements());
    source.start_epoch(1);
    for (BatchView b = source.next(); b.count; b = source.next()) {
        Plan& plan = feed(plans, b, width, false);
        plan.forward();
        visit(plan, b.labels, b.count);
    }
}

}  // namespace

EvalResult evaluate_batches(BatchSource& source, PlanCache& plans, const Loss& loss,
                            const std::vector<std::unique_ptr<Metric>>& metrics) {
    EvalResult r;
    for (auto& m : metrics) m->reset();
    double loss_sum = 0;
    for_each_batch(source, plans, [&](Plan& p, const std::int32_t* labels, std::int64_t count) {
        loss_sum += p.loss(labels, loss) * double(count);
        update_metrics(metrics, p, labels, count);
        r.samples += count;
    });
    if (r.samples == 0) return r;
    r.metrics.emplace_back("loss", loss_sum / double(r.samples));
    for (auto& m : metrics) r.metrics.emplace_back(m->name(), m->result());
    return r;
}

std::vector<float> predict_batches(BatchSource& source, PlanCache& plans) {
    std::vector<float> out;
    for_each_batch(source, plans, [&](Plan& p, const std::int32_t*, std::int64_t count) {
        out.insert(out.end(), p.output(), p.output() + count * p.output_width());
    });
    return out;
}

Inference::Inference(Model& model, const TrainingConfig& config) : model_(model), batch_size_(config.batch_size) {
    using train_detail::configured;
    model_.input_node();
    model_.output_node();
    loss_ = configured("loss", [&] { return make_loss(config.loss, config.loss_params); });
    for (const std::string& m : config.metrics)
        metrics_.push_back(configured("metrics", [&] { return make_metric(m); }));
    if (config.batch_size < 1) throw input_error("training.batch_size: must be at least 1");
    plans_ = std::make_unique<PlanCache>(model_, std::uint64_t(config.seed), config.memory_limit_mb, nullptr);
}

Inference::~Inference() = default;

EvalResult Inference::evaluate(const TensorDataset& data) {
    check_dataset(data, "evaluation");
    TensorSource source(data, batch_size_, false, 0);
    return evaluate(source);
}

EvalResult Inference::evaluate(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "evaluation");
    return evaluate_batches(data, *plans_, *loss_, metrics_);
}

std::vector<float> Inference::predict(const TensorDataset& data) {
    check_dataset(data, "prediction");
    TensorSource source(data, batch_size_, false, 0);
    return predict(source);
}

std::vector<float> Inference::predict(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "prediction");
    return predict_batches(data, *plans_);
}

// The same checks as Trainer::check_source / check_dataset, whose model-fits-data rule is being
// reworked on another branch: both are to call that one rule once it lands.
void Inference::check_source(const Shape& shape, std::size_t class_count, const char* what) const {
    const Shape& expected = model_.info(model_.input_node()).layer.output;
    if (shape != expected)
        throw input_error(std::string("the ") + what + " samples have shape " + shape.str() +
                          " but the Input layer expects " + expected.str() + "; change the Input shape");
    std::int64_t width = model_.info(model_.output_node()).layer.output.elements();
    std::int64_t classes = std::int64_t(class_count);
    if (width > 1 && classes > width)
        throw input_error("the output layer has " + std::to_string(width) + " units but the " + what + " data has " +
                          std::to_string(classes) + " classes; set the last layer's units to " +
                          std::to_string(classes));
}

void Inference::check_dataset(const TensorDataset& d, const char* what) const {
    check_source(d.sample_shape, d.class_names.size(), what);
    const std::int64_t width = model_.info(model_.output_node()).layer.output.elements();
    for (std::int32_t l : d.labels)
        if (l < 0 || (width > 1 && l >= width) || (width == 1 && l > 1))
            throw input_error(std::string("the ") + what + " data has label " + std::to_string(l) +
                              " outside the output layer's range");
}

}  // namespace lf
