#include <cstdio>
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/run/session.h"  // default_weights_path

namespace lf::cli {

void Reporter::line(const std::string& text) const {
    if (json_) return;
    std::fputs((text + "\n").c_str(), stdout);
    std::fflush(stdout);
}

void Reporter::object(const Json& j) const {
    if (!json_) return;
    std::fputs((j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n").c_str(), stdout);
    std::fflush(stdout);
}

const std::vector<Command>& commands() {
    static const std::vector<Command> all = {train_command(),   evaluate_command(),    predict_command(),
                                             dataset_command(), runs_command(),        checkpoints_command(),
                                             restore_command(), export_command(), import_command(),      info_command(),
                                             layers_command(),  plugins_command(), sweep_command(),
                                             devices_command()};
    return all;
}

std::string trained_weights_path(const Args& args, const std::string& project_path) {
    std::string weights = args.value("weights").value_or(default_weights_path(project_path));
    if (!std::filesystem::exists(weights))
        throw input_error(weights + ": no trained weights; run `layerforge-cli train " + project_path +
                          "` first or pass --weights PATH");
    return weights;
}

std::vector<OptionSpec> data_options() {
    return {{"batch-size", "N", "override training.batch_size"},
            {"seed", "N", "override training.seed"},
            {"limit-train", "N", "use only the first N training samples"},
            {"limit-test", "N", "use only the first N test samples"}};
}

std::string device_option(const Args& args, const Communicator* world) {
    std::string device = args.value("device").value_or("cpu");
    if (device == "cuda") device = "cuda:" + std::to_string(world ? world->local_rank() : 0);
    try {
        backend_for(device);
    } catch (const Error& e) {
        throw input_error(std::string("option --device: ") + e.what());
    }
    return device;
}

void apply_gpu_memory_option(const Args& args, Project& p) {
    if (auto v = args.integer("gpu-memory-limit")) {
        if (*v < 0) throw input_error("option --gpu-memory-limit must not be negative (0: grow on demand)");
        p.training.gpu_memory_limit_mib = *v;
    }
}

std::optional<Precision> precision_option(const Args& args) {
    const auto name = args.value("precision");
    if (!name) return std::nullopt;
    if (auto p = parse_precision(*name)) return p;
    throw input_error("option --precision expects " + precision_choices() + ", got '" + *name + "'");
}

void apply_data_options(const Args& args, Project& p) {
    auto positive = [&](const char* name) {
        auto v = args.integer(name);
        if (v && *v < 1) throw input_error(std::string("option --") + name + " must be at least 1");
        return v;
    };
    if (auto v = positive("batch-size")) p.training.batch_size = *v;
    if (auto v = args.integer("seed")) p.training.seed = *v;
    if (auto v = positive("limit-train")) p.dataset.limit_train = *v;
    if (auto v = positive("limit-test")) p.dataset.limit_test = *v;
}

}  // namespace lf::cli

namespace lf::cli {

Project open_project(const Args& args) {
    Project p = load_project(args.require(0, "PROJECT (a .lfproj file)"));
    apply_data_options(args, p);
    return p;
}

}  // namespace lf::cli
