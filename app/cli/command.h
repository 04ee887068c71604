#pragma once
// The CLI's commands: each has a spec (usage, options, help) and a run function returning the exit code.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.h"
#include "layerforge/core/communicator.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"

namespace lf::cli {

using Json = nlohmann::ordered_json;

// Prints either human-readable lines or one JSON object per line (--json).
class Reporter {
public:
    explicit Reporter(bool json) : json_(json) {}
    bool json() const { return json_; }
    void line(const std::string& text) const;  // human mode only
    void object(const Json& j) const;          // JSON mode only

private:
    bool json_;
};

struct Command {
    CommandSpec spec;
    int (*run)(const Args& args, const Reporter& out);
    // False for bookkeeping commands that never run a kernel: they skip the restart that sets
    // OMP_WAIT_POLICY (app/common/openmp_policy.h), which doubles a short command's start-up.
    bool runs_kernels = true;
};

const std::vector<Command>& commands();

Command train_command();
Command evaluate_command();
Command info_command();
Command layers_command();
Command plugins_command();
Command runs_command();
Command checkpoints_command();
Command restore_command();
Command dataset_command();
Command predict_command();
Command export_command();
Command import_command();
Command sweep_command();
Command devices_command();

// Shared by the commands that take a project.
inline const OptionSpec kJsonOption{"json", "", "print JSON lines instead of text"};
inline const OptionSpec kPrecisionOption{"precision", "P",
                                         "float32, mixed_bfloat16 or mixed_float16 (overrides training.precision); "
                                         "refused with the reason where the device has no fast kernels for it"};
inline const OptionSpec kGpuMemoryOption{"gpu-memory-limit", "MIB",
                                         "never hold more than MIB of a GPU's memory (overrides "
                                         "training.gpu_memory_limit_mib; 0: grow on demand)"};
inline const OptionSpec kDeviceOption{"device", "D",
                                      "cpu (default) or cuda:N, as `devices` lists them (CUDA_VISIBLE_DEVICES applies); "
                                      "cuda: cuda:0, or with --distributed each process's own GPU (its rank on its host)"};
// --device, or "cpu"; throws a usage error naming the devices there are (and why no GPU is
// offered) for one that is not. "cuda" is cuda:0, or cuda:<local rank> for a rank of `world`.
std::string device_option(const Args& args, const Communicator* world = nullptr);
// --gpu-memory-limit into p.training; throws a usage error when negative.
void apply_gpu_memory_option(const Args& args, Project& p);
// --precision as a policy (nullopt when absent); throws a usage error naming the choices.
std::optional<Precision> precision_option(const Args& args);
// --weights or the default path; throws a usage error saying to train first when it is missing.
std::string trained_weights_path(const Args& args, const std::string& project_path);
void apply_data_options(const Args& args, Project& p);  // --batch-size, --limit-train, --limit-test, --seed
// Loads the project named by the first positional argument and applies the data options.
Project open_project(const Args& args);
std::vector<OptionSpec> data_options();

// The project's run store (NAME.lfruns); `create` false: a usage error when there is none yet.
std::unique_ptr<RunStore> open_store(const std::string& project_path, bool create = false);
Json checkpoint_json(const CheckpointInfo& c);
// --run R as a run id (nullopt when absent).
std::optional<std::int64_t> run_option(const Args& args);
// Loads the checkpoint named by `spec` (id, ckpt-STEP, latest, best[:METRIC[:min|max]]) into the
// model's weights; with `partial`, only the layers that match (the others are returned).
CheckpointInfo load_checkpoint_weights(RunStore& store, const std::string& spec, std::optional<std::int64_t> run,
                                       Model& model, bool partial = false, std::vector<std::string>* skipped = nullptr);
// --dataset DIR, --validation-split X, --workers N: an image folder instead of the binding.
std::vector<OptionSpec> dataset_options();
bool apply_dataset_options(const Args& args, Project& p);  // true when --dataset replaced the binding
}  // namespace lf::cli

namespace lf {
struct BoundSources;
struct FileProblem;
}

namespace lf::cli {
// Binds the project's dataset for its model (cache file beside the project) and prints a summary
// and the files the scan skipped.
std::unique_ptr<BoundSources> bind_data(const Project& p, const std::string& project_path, const Reporter& out);
// Prints the files that failed to decode while training or evaluating.
void report_pipeline_problems(const BoundSources& data, const Reporter& out);
// The "data" JSON object of an image folder (sizes, classes, skipped files); nothing otherwise.
void print_data_object(const BoundSources& data, const Reporter& out);
Json problems_json(const std::vector<FileProblem>& problems);

}  // namespace lf::cli
