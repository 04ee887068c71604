// layerforge-cli plugins: the plugins loaded at startup with what each added, the ones refused
// and why, and the folders searched.
#include "command.h"
#include "plugin_host.h"

namespace lf::cli {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "-" : s;
}

int run_plugins(const Args&, const Reporter& out) {
    const auto& host = plugins::PluginHost::instance();
    Json loaded = Json::array(), refused = Json::array(), searched = Json::array();
    for (const auto& p : host.loaded()) {
        const PluginRecord& r = p.record;
        out.line(r.name + " " + r.version + "  " + p.file.toStdString());
        if (!p.description.isEmpty()) out.line("    " + p.description.toStdString());
        out.line("    layers: " + joined(r.layers) + "\n    losses: " + joined(r.losses) + "\n    metrics: " + joined(r.metrics));
        loaded.push_back({{"name", r.name}, {"version", r.version}, {"file", p.file.toStdString()},
                          {"description", p.description.toStdString()}, {"layers", r.layers},
                          {"losses", r.losses}, {"metrics", r.metrics}});
    }
    if (host.loaded().isEmpty()) out.line("no plugins loaded");
    for (const auto& p : host.refused()) {
        out.line("refused " + p.file.toStdString() + ": " + p.reason.toStdString());
        refused.push_back({{"file", p.file.toStdString()}, {"reason", p.reason.toStdString()}});
    }
    for (const QString& d : host.searchedDirs()) searched.push_back(d.toStdString());
    out.line("searched: " + (searched.empty() ? std::string("-") : searched.dump()));
    out.object({{"event", "result"}, {"plugins", loaded}, {"refused", refused}, {"searched", searched}});
    return 0;
}

}  // namespace

Command plugins_command() {
    return {{"plugins", "plugins [--json] [--plugin-dir DIR]",
             "Lists the loaded plugins and the layers, losses and metrics each added, and the refused ones.",
             {kJsonOption}},
            run_plugins, false};
}

}  // namespace lf::cli
