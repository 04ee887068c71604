#pragma once
// The image binding's `normalize` choices: how decoded pixels (v in 0..255) become the Input's
// values. Every one is (v / 255 - mean) / std per channel; they differ in where mean and std
// come from.
//   scale        [0, 1]: mean 0, std 1 (the default)
//   standardize  mean and std of the training split, computed when the data is bound
//   imagenet     torchvision's ImageNet statistics: mean (0.485, 0.456, 0.406), std (0.229, 0.224, 0.225)
//   symmetric    [-1, 1]: mean 0.5, std 0.5, as Keras' MobileNetV2 preprocess_input (v / 127.5 - 1)
#include <optional>
#include <string>
#include <vector>

namespace lf {

struct ChannelNormalization {
    std::vector<float> mean, std;  // one per channel, on values in [0, 1]
};

const std::vector<std::string>& normalization_modes();  // in the order above

// The fixed statistics of `mode` for an input of `channels` channels; nullopt for "scale" (the
// plain v / 255) and "standardize" (computed from the data). Throws lf::Error (Input) for an
// unknown mode, and for "imagenet" on an input that does not have 3 channels.
std::optional<ChannelNormalization> normalization_preset(const std::string& mode, int channels);

}  // namespace lf
