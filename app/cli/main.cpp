// layerforge-cli: the studio's jobs from a terminal. Exit codes: 0 ok, 1 runtime failure,
// 2 usage or input error, 3 `train` or `sweep` stopped by a signal (stop_signals.h).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>

#include "command.h"
#include "layerforge/core/error.h"
#include "openmp_policy.h"
#include "plugin_host.h"

namespace {

void print_overview() {
    std::string s = "usage: layerforge-cli COMMAND [ARGS] [--json]\n\ncommands:\n";
    for (const auto& c : lf::cli::commands()) {
        std::string name = "  " + c.spec.name;
        name.resize(14, ' ');
        s += name + c.spec.summary.substr(0, c.spec.summary.find('\n')) + "\n";
    }
    s += "\nevery command also takes --plugin-dir DIR (repeatable): load the plugins in DIR too\n";
    s += "\nRun `layerforge-cli COMMAND --help` for a command's options.\n";
    std::fputs(s.c_str(), stdout);
}

// Removes every "--plugin-dir DIR" / "--plugin-dir=DIR" from args and returns the folders.
std::vector<std::string> take_plugin_dirs(std::vector<std::string>& args) {
    std::vector<std::string> dirs, kept;
    const std::string opt = "--plugin-dir";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == opt) {
            if (i + 1 == args.size()) throw lf::input_error("option --plugin-dir needs a folder");
            dirs.push_back(args[++i]);
        } else if (args[i].rfind(opt + "=", 0) == 0) {
            dirs.push_back(args[i].substr(opt.size() + 1));
        } else {
            kept.push_back(args[i]);
        }
    }
    for (const auto& d : dirs)
        if (!std::filesystem::is_directory(d)) throw lf::input_error("option --plugin-dir: '" + d + "' is not a folder");
    args = kept;
    return dirs;
}

void load_plugins(const std::vector<std::string>& dirs) {
    QStringList extra;
    for (const auto& d : dirs) extra << QString::fromStdString(d);
    lf::plugins::loadPlugins(extra);  // refusals are logged to stderr; the command still runs
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> rest(argv + 1, argv + argc);
    std::vector<std::string> plugin_dirs;
    try {
        plugin_dirs = take_plugin_dirs(rest);
    } catch (const lf::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || rest[0] == "help") {
        print_overview();
        return rest.empty() ? 2 : 0;
    }
    if (rest[0] == "--version") {
        std::puts("layerforge-cli 0.1.0");
        return 0;
    }
    const lf::cli::Command* cmd = nullptr;
    for (const auto& c : lf::cli::commands())
        if (c.spec.name == rest[0]) cmd = &c;
    if (!cmd) {
        std::fprintf(stderr, "layerforge-cli: unknown command '%s'; run layerforge-cli --help\n", rest[0].c_str());
        return 2;
    }
    if (cmd->runs_kernels) lf::app::ensure_passive_openmp(argv);
    rest.erase(rest.begin());
    load_plugins(plugin_dirs);
    bool json = false;
    try {
        lf::cli::Args args(cmd->spec, rest);
        json = args.flag("json");
        if (args.help()) {
            std::fputs(cmd->spec.help_text().c_str(), stdout);
            return 0;
        }
        return cmd->run(args, lf::cli::Reporter(json));
    } catch (const lf::Error& e) {
        bool input = e.kind() == lf::ErrorKind::Input;
        if (json) lf::cli::Reporter(true).object({{"event", "error"}, {"kind", input ? "input" : "runtime"}, {"message", e.what()}});
        std::fprintf(stderr, "error: %s\n", e.what());
        return input ? 2 : 1;
    } catch (const std::bad_alloc&) {  // not from a plan (the trainer names those): still no crash
        const char* m = "out of memory: lower the batch size or the model's size, or set a memory limit";
        if (json) lf::cli::Reporter(true).object({{"event", "error"}, {"kind", "runtime"}, {"message", m}});
        std::fprintf(stderr, "error: %s\n", m);
        return 1;
    } catch (const std::exception&) {  // a defect: its text means nothing to a user
        const std::string m = "internal error in `" + cmd->spec.name +
                              "`; please report it with the command line and the files it names";
        if (json) lf::cli::Reporter(true).object({{"event", "error"}, {"kind", "internal"}, {"message", m}});
        std::fprintf(stderr, "error: %s\n", m.c_str());
        return 1;
    }
}
