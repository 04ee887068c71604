#include "layerforge/store/run_diff.h"

#include <nlohmann/json.hpp>
#include <set>

namespace lf {

FlatSettings flat_settings(const RunInfo& r) {
    using Json = nlohmann::json;
    const Json j = Json{{"model", Json::parse(r.graph, nullptr, false)},
                        {"settings", Json::parse(r.settings, nullptr, false)}}.flatten();
    FlatSettings out;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key().find("/position") == std::string::npos) out.emplace(it.key(), it.value().dump());
    return out;
}

std::vector<std::string> differing_settings(const std::vector<FlatSettings>& runs) {
    std::set<std::string> keys;
    for (const FlatSettings& r : runs)
        for (const auto& kv : r) keys.insert(kv.first);
    std::vector<std::string> out;
    for (const std::string& k : keys) {
        const std::string* first = nullptr;
        bool differs = false;
        for (std::size_t i = 0; i < runs.size() && !differs; ++i) {
            const auto it = runs[i].find(k);
            const std::string* v = it == runs[i].end() ? nullptr : &it->second;
            if (i == 0) first = v;
            else differs = (v == nullptr) != (first == nullptr) || (v && *v != *first);
        }
        if (differs) out.push_back(k);
    }
    return out;
}

std::vector<SettingDifference> settings_diff(const RunInfo& a, const RunInfo& b) {
    const FlatSettings fa = flat_settings(a), fb = flat_settings(b);
    std::vector<SettingDifference> out;
    for (const std::string& k : differing_settings({fa, fb})) {
        const auto ia = fa.find(k), ib = fb.find(k);
        out.push_back({k, ia == fa.end() ? std::string() : ia->second, ib == fb.end() ? std::string() : ib->second});
    }
    return out;
}

}  // namespace lf
