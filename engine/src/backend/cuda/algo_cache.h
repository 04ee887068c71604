#pragma once
// Note [cuDNN algorithm cache]
// cuDNN's heuristics (cudnnGetConvolution*Algorithm_v7, or a timed cudnnFind*) pick a
// convolution algorithm per problem, and asking costs far more than running: the answer is
// kept per shape, as PyTorch's benchmark cache keeps it, for the process's life. The key is
// everything the choice depends on: the pass, the tensors' shapes and layout, the window
// geometry, the data and math types, and the device's compute capability (a choice made on
// sm_90 may not exist on sm_80). Two plans of one model at the same batch size share answers;
// a new batch size (the last partial batch of an epoch) asks once more.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace lf {

enum class ConvPass : std::uint8_t { Forward, BackwardData, BackwardFilter };

struct ConvAlgoKey {
    ConvPass pass = ConvPass::Forward;
    std::int64_t n = 0, c = 0, h = 0, w = 0;  // cuDNN's input (a Conv2DTranspose's output), NHWC
    std::int64_t k = 0, r = 0, s = 0;         // filters and window
    // TensorFlow's 'same' padding may put one more row or column at the bottom or right, which
    // cuDNN cannot pad: the plan pads such an input itself, and the key keeps both sides.
    std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    std::int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
    std::int64_t groups = 1;                  // c for a depthwise convolution
    std::string data_type = "float32";        // of the tensors: float32, bfloat16, float16
    std::string math = "fp32";                // fp32 (TF32 off), tf32, tensor_op
    int cc = 0;                               // compute capability x 10: 90 for sm_90
    bool operator==(const ConvAlgoKey&) const = default;
    auto operator<=>(const ConvAlgoKey&) const = default;
};

// "fwd n50 c1 h28 w28 k32 r5 s5 pad0,0,0,0 stride1,1 dil1,1 g1 float32 fp32 sm90" (pads top,
// bottom, left, right): for logs and the profile page, one key per line.
std::string to_string(const ConvAlgoKey& key);

// The key of cuDNN's convolution (a DepthwiseConv2D's: groups = channels; a Conv2DTranspose's:
// the one it runs backwards) over an input of `batch` x in_shape (H, W, C), from its window
// (layers/window.h).
struct Window2D;
struct Shape;
ConvAlgoKey conv_algo_key(ConvPass pass, std::int64_t batch, const Shape& in_shape, std::int64_t filters,
                          std::int64_t groups, const Window2D& window, const std::string& data_type,
                          const std::string& math, int cc);

struct ConvAlgoChoice {
    int algo = 0;                    // the cudnnConvolution*Algo_t value
    std::size_t workspace_bytes = 0;
};

// Shared by the plans of every device model of the process; safe from any thread.
class ConvAlgoCache {
public:
    std::optional<ConvAlgoChoice> find(const ConvAlgoKey& key) const;
    // Keeps the first answer given for a key: two plans racing to ask agree on one choice.
    ConvAlgoChoice insert(const ConvAlgoKey& key, const ConvAlgoChoice& choice);
    std::size_t size() const;
    std::size_t hits() const;
    std::size_t misses() const;

private:
    mutable std::mutex mutex_;
    std::map<ConvAlgoKey, ConvAlgoChoice> choices_;
    mutable std::size_t hits_ = 0, misses_ = 0;
};

}  // namespace lf
