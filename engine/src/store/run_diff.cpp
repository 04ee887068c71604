#include "layerforge/store/run_diff.h"

#include <nlohmann/json.hpp>
#include <set>

namespace lf {

std::vector<SettingDifference> settings_diff(const RunInfo& a, const RunInfo& b) {
    using Json = nlohmann::json;
    auto flat = [](const RunInfo& r) {
        Json j = {{"model", Json::parse(r.graph, nullptr, false)}, {"settings", Json::parse(r.settings, nullptr, false)}};
        return j.flatten();
    };
    const Json fa = flat(a), fb = flat(b);
    std::set<std::string> keys;
    for (auto it = fa.begin(); it != fa.end(); ++it) keys.insert(it.key());
    for (auto it = fb.begin(); it != fb.end(); ++it) keys.insert(it.key());
    std::vector<SettingDifference> out;
    for (const std::string& k : keys) {
        const Json va = fa.contains(k) ? fa[k] : Json(), vb = fb.contains(k) ? fb[k] : Json();
        if (va == vb || k.find("/position") != std::string::npos) continue;
        out.push_back({k, va.is_null() ? std::string() : va.dump(), vb.is_null() ? std::string() : vb.dump()});
    }
    return out;
}

}  // namespace lf
