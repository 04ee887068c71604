#include "layerforge/train/host_loss.h"

namespace lf {

HostLoss::HostLoss(Plan& plan) : plan_(plan), softmax_(plan.output_is_softmax()) {
    const std::size_t n = std::size_t(plan.batch() * plan.output_width());
    out_.resize(n);
    if (softmax_) logits_.resize(n);
    if (plan.options().mode == PlanMode::Train) grad_.resize(n);
}

void HostLoss::read() {
    plan_.read_output(out_.data());
    if (softmax_) plan_.read_logits(logits_.data());
}

LossBatch HostLoss::batch(const std::int32_t* labels) const {
    return {out_.data(), softmax_ ? logits_.data() : nullptr, labels, plan_.batch(), plan_.output_width()};
}

double HostLoss::value(const Loss& loss, const std::int32_t* labels) const { return loss.compute(batch(labels), nullptr); }

double HostLoss::forward_loss(const Loss& loss, const std::int32_t* labels) {
    plan_.forward();
    read();
    const LossBatch b = batch(labels);
    const bool fused = b.logits && loss.fuses_softmax(b);
    const double value = loss.compute(b, grad_.data());
    if (grad_scale_ != 1)
        for (float& g : grad_) g *= grad_scale_;
    plan_.set_output_grad(grad_.data(), fused ? OutputGrad::Logits : OutputGrad::Output);
    return value;
}

double HostLoss::train_step(const Loss& loss, const std::int32_t* labels) {
    const double value = forward_loss(loss, labels);
    plan_.backward();
    return value;
}

}  // namespace lf
