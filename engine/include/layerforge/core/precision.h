#pragma once
// A run's precision policy, with Keras' names (tf.keras.mixed_precision.set_global_policy):
// float32 everywhere, or mixed_bfloat16 / mixed_float16, where the compute-heavy ops take
// 16-bit inputs and weights and activations are stored in 16 bits between ops, while master
// weights, optimizer state, loss and metrics stay float32. mixed_float16's narrow exponent
// needs dynamic loss scaling (train/loss_scale.h). A backend says whether a device can run a
// policy fast (Backend::precision_unsupported); a policy it would only emulate is refused,
// never slow.
#include <optional>
#include <cstddef>
#include <string>
#include <string_view>

namespace lf {

enum class Precision { Float32, MixedBFloat16, MixedFloat16 };

inline constexpr Precision kPrecisions[] = {Precision::Float32, Precision::MixedBFloat16, Precision::MixedFloat16};

const char* to_string(Precision p);  // "float32", "mixed_bfloat16", "mixed_float16"
std::optional<Precision> parse_precision(std::string_view text);
std::string precision_choices();  // "float32 or mixed_bfloat16 or mixed_float16"

// The storage type of one plan buffer.
enum class DType { Float32, BFloat16, Float16 };
inline constexpr std::size_t dtype_size(DType t) { return t == DType::Float32 ? 4 : 2; }
const char* to_string(DType t);  // "float32", "bfloat16", "float16"

// The type a policy stores activations in (float32 for float32).
inline constexpr DType compute_dtype(Precision p) {
    return p == Precision::MixedBFloat16 ? DType::BFloat16 : p == Precision::MixedFloat16 ? DType::Float16 : DType::Float32;
}

}  // namespace lf
