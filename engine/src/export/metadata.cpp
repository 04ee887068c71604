#include "export/metadata.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "layerforge/data/binding.h"
#include "layerforge/project/project.h"

namespace lf {

ExportMetadata export_metadata(const DatasetBinding& binding, const std::map<std::string, std::string>& weights_meta) {
    ExportMetadata m;
    m.classes = binding.classes;
    auto json_of = [&](const char* key) {
        auto it = weights_meta.find(key);
        return it == weights_meta.end() ? nlohmann::json() : nlohmann::json::parse(it->second, nullptr, false);
    };
    if (auto c = json_of("classes"); c.is_array()) m.classes = c.get<std::vector<std::string>>();
    if (auto v = json_of("mean"); v.is_array()) m.mean = v.get<std::vector<float>>();
    if (auto v = json_of("std"); v.is_array()) m.std = v.get<std::vector<float>>();
    return m;
}

}  // namespace lf

namespace lf::exporter {

std::string float_list(const std::vector<float>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", double(v[i]));
        s += (i ? ", " : "") + std::string(buf);
    }
    return s + "]";
}

std::string string_list(const std::vector<std::string>& v) { return nlohmann::json(v).dump(); }

std::map<std::string, std::string> metadata_entries(const ExportMetadata& meta, InputLayout layout) {
    std::string formula = "x = pixel / 255";
    if (!meta.mean.empty()) formula += "; x = (x - mean[c]) / std[c]";
    std::map<std::string, std::string> e{{"classes", string_list(meta.classes)},
                                         {"normalization", formula},
                                         {"input_layout", layout == InputLayout::NHWC ? "NHWC" : "NCHW"},
                                         {"producer", "layerforge 0.1.0"}};
    if (!meta.mean.empty()) e["mean"] = float_list(meta.mean), e["std"] = float_list(meta.std);
    if (!meta.source.empty()) e["source"] = meta.source;
    return e;
}

}  // namespace lf::exporter
