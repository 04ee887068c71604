#pragma once
// The loss on the host (it is tiny): a plan's n x c output, and its logits when the output is a
// softmax, are downloaded after forward(); the loss and its gradient are computed here, and the
// gradient goes back up before backward(). Buffers are sized once per plan.
#include <cstdint>
#include <vector>

#include "layerforge/backend/plan.h"
#include "layerforge/train/loss.h"

namespace lf {

class HostLoss {
public:
    explicit HostLoss(Plan& plan);

    // Downloads the output of the last forward() (and the logits when there are some).
    void read();
    const float* output() const { return out_.data(); }

    // Mean loss of the downloaded output, without gradients (evaluation).
    double value(const Loss& loss, const std::int32_t* labels) const;
    // forward, download, loss and its gradient, upload: returns the mean loss. The plan's
    // backward (and the update) may follow.
    double forward_loss(const Loss& loss, const std::int32_t* labels);
    // The factor forward_loss multiplies the uploaded gradient by (mixed_float16's loss scale).
    void set_grad_scale(float scale) { grad_scale_ = scale; }
    // forward_loss, then backward: returns the mean loss.
    double train_step(const Loss& loss, const std::int32_t* labels);

private:
    LossBatch batch(const std::int32_t* labels) const;

    Plan& plan_;
    bool softmax_;
    std::vector<float> out_, logits_, grad_;
    float grad_scale_ = 1;
};

}  // namespace lf
