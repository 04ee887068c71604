#include "layerforge/data/normalization.h"

#include "layerforge/core/error.h"

namespace lf {

const std::vector<std::string>& normalization_modes() {
    static const std::vector<std::string> modes{"scale", "standardize", "imagenet", "symmetric"};
    return modes;
}

std::optional<ChannelNormalization> normalization_preset(const std::string& mode, int channels) {
    const auto c = std::size_t(channels);
    if (mode == "scale" || mode == "standardize") return std::nullopt;
    if (mode == "symmetric") return ChannelNormalization{std::vector<float>(c, 0.5f), std::vector<float>(c, 0.5f)};
    if (mode == "imagenet") {
        if (channels != 3)
            throw input_error("dataset.image.normalize: \"imagenet\" needs an RGB Input (3 channels), this one has " +
                              std::to_string(channels) + "; use \"scale\" or \"standardize\", or a 3-channel Input");
        return ChannelNormalization{{0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}};
    }
    std::string list;
    for (const std::string& m : normalization_modes()) list += (list.empty() ? "\"" : ", \"") + m + "\"";
    throw input_error("dataset.image.normalize: must be one of " + list);
}

}  // namespace lf
