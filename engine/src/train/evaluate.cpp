// Trainer::evaluate and Trainer::predict: inference plans over one epoch of a source, in order.
#include "layerforge/backend/backend.h"
#include "train/plan_slot.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/trainer.h"

namespace lf {

namespace {

// Runs the model over every sample in order, calling visit(slot, labels, count) per batch with
// the output downloaded into slot.loss.
template <class PlanFor, class Visit>
void for_each_batch(BatchSource& source, PlanFor plan_for, Visit visit) {
    source.start_epoch(1);
    for (BatchView b = source.next(); b.count; b = source.next()) {
        auto& slot = plan_for(b.count);
        slot.plan->set_input(b.images);
        slot.plan->forward();
        slot.loss.read();
        visit(slot, b.labels, b.count);
    }
}

}  // namespace

EvalResult Trainer::evaluate(const TensorDataset& data) {
    check_dataset(data, "evaluation");
    TensorSource source(data, config_.batch_size, false, 0);
    return evaluate(source);
}

EvalResult Trainer::evaluate(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "evaluation");
    device_->push_weights();
    return evaluate_on_device(data);
}

EvalResult Trainer::evaluate_on_device(BatchSource& data) {
    EvalResult r;
    for (auto& m : metrics_) m->reset();
    double loss_sum = 0;
    for_each_batch(data, [&](std::int64_t n) -> PlanSlot& { return plan_for(n, false); },
                   [&](PlanSlot& p, const std::int32_t* labels, std::int64_t count) {
                       loss_sum += p.loss.value(*loss_, labels) * double(count);
                       for (auto& m : metrics_) m->update(p.loss.output(), labels, count, p.plan->output_width());
                       r.samples += count;
                   });
    if (r.samples == 0) return r;
    r.metrics.emplace_back("loss", loss_sum / double(r.samples));
    for (auto& m : metrics_) r.metrics.emplace_back(m->name(), m->result());
    return r;
}

std::vector<float> Trainer::predict(const TensorDataset& data) {
    check_dataset(data, "prediction");
    TensorSource source(data, config_.batch_size, false, 0);
    return predict(source);
}

std::vector<float> Trainer::predict(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "prediction");
    device_->push_weights();
    std::vector<float> out;
    for_each_batch(data, [&](std::int64_t n) -> PlanSlot& { return plan_for(n, false); },
                   [&](PlanSlot& p, const std::int32_t*, std::int64_t count) {
                       out.insert(out.end(), p.loss.output(), p.loss.output() + count * p.plan->output_width());
                   });
    return out;
}

}  // namespace lf
