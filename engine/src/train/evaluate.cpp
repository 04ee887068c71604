// Trainer::evaluate and Trainer::predict: inference plans over a dataset in batch order.
#include <numeric>

#include "layerforge/graph/plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/trainer.h"
#include "train/batch_feed.h"

namespace lf {

namespace {

// Runs the model over every sample in order, calling visit(plan, labels, count) per batch.
template <class Visit>
void for_each_batch(const TensorDataset& d, std::int64_t batch, Plan& full, Plan* rest, Visit visit) {
    std::vector<std::int64_t> index(static_cast<std::size_t>(batch));
    std::vector<std::int32_t> labels(static_cast<std::size_t>(batch));
    for (std::int64_t start = 0; start < d.size(); start += batch) {
        std::int64_t count = std::min(batch, d.size() - start);
        Plan& plan = count == batch ? full : *rest;
        std::iota(index.begin(), index.begin() + count, start);
        gather_batch(d, index.data(), count, plan.input(), labels.data());
        plan.forward();
        visit(plan, labels.data(), count);
    }
}

}  // namespace

EvalResult Trainer::evaluate(const TensorDataset& data) {
    check_dataset(data, "evaluation");
    EvalResult r;
    r.samples = data.size();
    if (data.size() == 0) return r;
    std::int64_t bs = std::min<std::int64_t>(config_.batch_size, data.size());
    Plan& full = plan_for(bs, false);
    Plan* rest = data.size() % bs ? &plan_for(data.size() % bs, false) : nullptr;
    for (auto& m : metrics_) m->reset();
    double loss_sum = 0;
    for_each_batch(data, bs, full, rest, [&](Plan& p, const std::int32_t* labels, std::int64_t count) {
        loss_sum += p.loss(labels, *loss_) * double(count);
        for (auto& m : metrics_) m->update(p.output(), labels, count, p.output_width());
    });
    r.metrics.emplace_back("loss", loss_sum / double(data.size()));
    for (auto& m : metrics_) r.metrics.emplace_back(m->name(), m->result());
    return r;
}

std::vector<float> Trainer::predict(const TensorDataset& data) {
    check_dataset(data, "prediction");
    if (data.size() == 0) return {};
    std::int64_t bs = std::min<std::int64_t>(config_.batch_size, data.size());
    Plan& full = plan_for(bs, false);
    Plan* rest = data.size() % bs ? &plan_for(data.size() % bs, false) : nullptr;
    std::vector<float> out;
    out.reserve(std::size_t(data.size() * full.output_width()));
    for_each_batch(data, bs, full, rest, [&](Plan& p, const std::int32_t*, std::int64_t count) {
        out.insert(out.end(), p.output(), p.output() + count * p.output_width());
    });
    return out;
}

}  // namespace lf
