// Trainer::evaluate and Trainer::predict: inference plans over one epoch of a source, in order.
#include <cstring>

#include "layerforge/graph/plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/trainer.h"

namespace lf {

namespace {

// Runs the model over every sample in order, calling visit(plan, labels, count) per batch.
template <class PlanFor, class Visit>
void for_each_batch(BatchSource& source, PlanFor plan_for, Visit visit) {
    const std::size_t width = std::size_t(source.sample_shape().elements());
    source.start_epoch(1);
    for (BatchView b = source.next(); b.count; b = source.next()) {
        Plan& plan = plan_for(b.count);
        std::memcpy(plan.input(), b.images, std::size_t(b.count) * width * sizeof(float));
        plan.forward();
        visit(plan, b.labels, b.count);
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
    EvalResult r;
    for (auto& m : metrics_) m->reset();
    double loss_sum = 0;
    for_each_batch(data, [&](std::int64_t n) -> Plan& { return plan_for(n, false); },
                   [&](Plan& p, const std::int32_t* labels, std::int64_t count) {
                       loss_sum += p.loss(labels, *loss_) * double(count);
                       for (auto& m : metrics_) m->update(p.output(), labels, count, p.output_width());
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
    std::vector<float> out;
    for_each_batch(data, [&](std::int64_t n) -> Plan& { return plan_for(n, false); },
                   [&](Plan& p, const std::int32_t*, std::int64_t count) {
                       out.insert(out.end(), p.output(), p.output() + count * p.output_width());
                   });
    return out;
}

}  // namespace lf
