// What the run-store commands share: opening NAME.lfruns, naming checkpoints, loading one.
#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/store/checkpoint.h"

namespace lf::cli {

std::unique_ptr<RunStore> open_store(const std::string& project_path, bool create) {
    return std::make_unique<RunStore>(RunStore::path_for_project(project_path), create);
}

Json checkpoint_json(const CheckpointInfo& c) {
    return {{"id", c.id},           {"name", c.name()},        {"run", c.run},
            {"step", c.step},       {"epoch", c.epoch},        {"created", c.created},
            {"metrics", Json::parse(c.metrics, nullptr, false)}, {"pinned", c.pinned},
            {"bytes", c.bytes},     {"checksum", c.checksum}};
}

std::optional<std::int64_t> run_option(const Args& args) {
    auto r = args.integer("run");
    if (r && *r < 1) throw input_error("option --run expects a run id (see `layerforge-cli runs list`)");
    return r;
}

CheckpointInfo load_checkpoint_weights(RunStore& store, const std::string& spec, std::optional<std::int64_t> run,
                                       Model& model, bool partial, std::vector<std::string>* skipped) {
    CheckpointInfo c = store.resolve(spec.empty() ? "latest" : spec, run);
    auto left = restore_checkpoint_weights(model, store.checkpoint_blob(c.id),
                                           store.path() + " checkpoint " + std::to_string(c.id), partial);
    if (skipped) *skipped = left;
    return c;
}

}  // namespace lf::cli
