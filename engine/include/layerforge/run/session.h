#pragma once
// One training run of a project, as the CLI's `train` and the studio's Train workspace both do
// it: bind the dataset, create (or resume) the run in the project's run store, record metrics
// and checkpoints with a retention policy while fitting, evaluate on the test split and save
// the weights. Pause, resume and stop may be requested from any thread at any time; they take
// effect between steps (a request made before the fit begins waits for it).
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/data/binding.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/trainer.h"

namespace lf {

// Where a new run's weights start (a resume starts from its checkpoint).
enum class InitialWeights {
    ProjectFile,  // the project's initial weights (training.initial_weights, an imported network's):
                  // each weight they hold under the model's name and shape; the rest, and all of
                  // them when the project names none, from the initialisers and the seed
    Random,       // the initialisers and the seed only
};

struct SessionOptions {
    std::string project_path;  // NAME.lfproj: the decode cache, the run store and the weights sit beside it
    std::string store_path;    // empty: NAME.lfruns beside the project
    std::string weights_path;  // empty: NAME.weights.safetensors beside the project
    InitialWeights init = InitialWeights::ProjectFile;
    CheckpointPolicy checkpoints;
    std::int64_t keep = 5;         // newest checkpoints kept, besides the best and the pinned
    std::string best_metric;       // empty: val_loss when there is validation data, else loss
    std::string best_mode = "auto";  // min | max | auto (max for accuracies)
    std::optional<std::string> resume;  // continue from a checkpoint: id, ckpt-STEP, latest, best ("" = latest)
    std::optional<std::int64_t> resume_run;  // look the checkpoint up in this run
    std::string run_name;  // empty: the project's name
    std::string notes;
    std::vector<std::string> tags;  // stored with a new run (a sweep's trials: "sweep:NAME")
    std::string device = "cpu";
    // --precision: overrides training.precision for a new run. A resumed run keeps the policy it
    // was recorded with (run_precision); naming another one is refused.
    std::optional<Precision> precision;
    std::int64_t log_every = 100;  // observers get a Step event every N steps
    // --tensorboard DIR: TensorBoard event files written live in DIR/<run name>-<run id>
    // (tensorboard/tensorboard_logger.h); empty: none. A failure to write them is reported and
    // ends the logging, never the training.
    std::string tensorboard_dir;
    // An image folder bound without a class list gets the scanned one (it fixes the label ids for
    // later runs); `write_project` also saves it into the project file.
    bool fix_class_list = true;
    bool write_project = true;
    // The run store's lock file: one training per store at a time. A sweep whose trials run at
    // once on the ranks of an MPI job shares the store without it (each trial has weights of
    // its own and writes no project file; SQLite orders their writes).
    bool lock_store = true;
    std::vector<TrainObserver*> observers;  // called on the training thread, before the run store
    // Data parallelism (Trainer::set_communicator): every rank runs this session. Rank 0 alone
    // reads and writes the run store, the TensorBoard logs, the project file and the weights,
    // and tells the listener; it sends a resumed checkpoint to the others. The run records the
    // world size and hosts in its settings.
    Communicator* communicator = nullptr;
};

// What happens around the fit. Called on the thread that runs the session.
class SessionListener {
public:
    virtual ~SessionListener() = default;
    virtual void on_line(const std::string& /*text*/) {}  // a progress line, as the CLI prints it
    virtual void on_data_bound(const BoundSources& /*data*/) {}
    virtual void on_run_created(std::int64_t /*run*/, const std::string& /*store_path*/) {}
    virtual void on_resumed(std::int64_t /*run*/, const CheckpointInfo& /*from*/) {}
    virtual void on_checkpoint(const CheckpointInfo& /*c*/) {}  // after it is committed
    virtual void on_pipeline_problems(const std::vector<FileProblem>& /*problems*/) {}  // files that failed to decode
};

struct SessionResult {
    std::int64_t run = 0;
    FitResult fit;                    // Failed, or Stopped without finish_up: nothing below was done
    std::optional<EvalResult> test;   // when the data has a test split
    std::string weights_path;         // where the weights were saved
    std::string weights;              // the saved file's bytes (safetensors)
    std::vector<std::string> class_names;
};

// NAME.weights.safetensors beside the project.
std::string default_weights_path(const std::string& project_path);
// The project's dataset bound for its model's input and batch size, with the decode cache
// (NAME.lfcache) beside the project. Throws lf::Error (Input).
std::unique_ptr<BoundSources> bind_project_data(const Project& p, const std::string& project_path);
// "data: 480 training, 120 validation, no test samples, 3 classes"
std::string data_summary(const BoundSources& data);
// The files the image pipelines failed to decode so far (while training or evaluating).
std::vector<FileProblem> pipeline_problems(const BoundSources& data);

class TrainingSession {
public:
    TrainingSession(Project project, SessionOptions options, SessionListener* listener = nullptr);
    ~TrainingSession();

    // Runs once. Throws lf::Error for bad input (training settings, data, a checkpoint that does
    // not fit) and for a store that cannot be written; a run that fails while fitting (NaN loss,
    // a checkpoint not saved) returns RunStatus::Failed with the checkpoints committed before it.
    SessionResult run();

    void request_pause();
    void request_resume();
    // The fit stops at its next step (and checkpoints, as the policy says). With `finish_up`
    // the session then evaluates and saves the weights as for a finished run; without (the
    // application is closing) it returns right after the fit.
    void request_stop(bool finish_up = true);

private:
    class RequestGate;
    void set_trainer(Trainer* t);

    Project project_;
    SessionOptions options_;
    SessionListener* listener_;
    SessionListener silent_;
    std::unique_ptr<RequestGate> gate_;
    std::mutex mutex_;  // guards trainer_
    Trainer* trainer_ = nullptr;
    std::atomic<bool> pause_{false}, stop_{false}, finish_up_{true};
};

}  // namespace lf
