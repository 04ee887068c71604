#pragma once
// A run's precision policy, with Keras' names (tf.keras.mixed_precision.set_global_policy):
// float32 everywhere, or mixed_bfloat16, where the compute-heavy ops take bfloat16 inputs and
// weights and activations are stored in bfloat16 between ops, while master weights, optimizer
// state, loss and metrics stay float32. A backend says whether a device can run a policy fast
// (Backend::precision_unsupported); a policy it would only emulate is refused, never slow.
#include <optional>
#include <cstddef>
#include <string_view>

namespace lf {

enum class Precision { Float32, MixedBFloat16 };

inline constexpr Precision kPrecisions[] = {Precision::Float32, Precision::MixedBFloat16};

const char* to_string(Precision p);  // "float32", "mixed_bfloat16"
std::optional<Precision> parse_precision(std::string_view text);

// The storage type of one plan buffer.
enum class DType { Float32, BFloat16 };
inline constexpr std::size_t dtype_size(DType t) { return t == DType::BFloat16 ? 2 : 4; }
const char* to_string(DType t);  // "float32", "bfloat16"

}  // namespace lf
