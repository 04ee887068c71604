// layerforge-cli layers: every layer type with its parameters, from the registry the studio uses.
#include <cmath>

#include "command.h"
#include "layerforge/layers/registry.h"
#include "layerforge/plugins/registrar.h"

namespace lf::cli {

namespace {

Json value_json(const ParamValue& v) {
    return std::visit([](const auto& x) { return Json(x); }, v);
}

std::string arity(const LayerSpec& s) {
    if (s.max_inputs < 0) return std::to_string(s.min_inputs) + "+ inputs";
    return std::to_string(s.max_inputs) + (s.max_inputs == 1 ? " input" : " inputs");
}

// The plugin that added the layer type, or "" for a built-in.
std::string plugin_of(const std::string& type) {
    for (const PluginRecord& r : registered_plugins())
        for (const auto& t : r.layers)
            if (t == type) return r.name;
    return "";
}

int run_layers(const Args&, const Reporter& out) {
    Json all = Json::array();
    for (const LayerSpec& s : LayerRegistry::instance().all()) {
        const std::string plugin = plugin_of(s.type);
        out.line(s.type + "  [" + s.category + ", " + arity(s) + (plugin.empty() ? "" : ", plugin " + plugin) + "]  " +
                 s.help);
        Json params = Json::array();
        for (const ParamSpec& p : s.params) {
            std::string range = range_text(p);
            if (!range.empty()) range = "  " + range;
            std::string choices;
            for (const auto& c : p.choices) choices += (choices.empty() ? "  one of " : "|") + c;
            out.line("    " + p.name + " (" + to_string(p.kind) + (p.required ? ", required" : "") + ", default " +
                     to_string(p.def) + ")" + range + choices + "  " + p.help);
            Json j = {{"name", p.name}, {"type", to_string(p.kind)}, {"default", value_json(p.def)},
                      {"required", p.required}, {"help", p.help}};
            if (std::isfinite(p.min)) j["min"] = p.min;
            if (std::isfinite(p.max)) j["max"] = p.max;
            if (!p.choices.empty()) j["choices"] = p.choices;
            params.push_back(j);
        }
        all.push_back({{"type", s.type}, {"category", s.category}, {"help", s.help}, {"min_inputs", s.min_inputs},
                       {"max_inputs", s.max_inputs}, {"params", params}});
        if (!plugin.empty()) all.back()["plugin"] = plugin;
    }
    out.object({{"event", "result"}, {"layers", all}});
    return 0;
}

}  // namespace

Command layers_command() {
    return {{"layers", "layers [--json]", "Lists every layer type with its parameters (name, type, default, range, help).",
             {kJsonOption}},
            run_layers, false};
}

}  // namespace lf::cli
