// TrainingSession: the steps of a training run around Trainer::fit, shared by the CLI and the
// studio. The order matters and is the CLI's: settings are checked before the store is opened,
// the store before the data is bound, and the run is created only when the data is there.
#include "layerforge/run/session.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/file_lock.h"
#include "layerforge/run/run_recorder.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/tensorboard/tensorboard_logger.h"
#include "layerforge/core/communicator.h"
#include "layerforge/train/event_text.h"
#include "layerforge/train/memory_budget.h"
#include "run/initial_weights.h"

namespace lf {

using Json = nlohmann::ordered_json;

namespace {

// What the run trained with, for `runs compare`: the graph and the training and data settings.
// The precision policy is always there, float32 too (the project file leaves the default out).
std::pair<std::string, std::string> snapshots(const Project& p) {
    Json doc = Json::parse(serialize_project(p));
    doc["training"]["precision"] = to_string(p.training.precision);
    Json settings = {{"training", doc["training"]}, {"dataset", doc["dataset"]}};
    return {doc["model"].dump(), settings.dump()};
}

// Fashion-MNIST: a checksum of the training tensors; image folders: of the file list and labels.
std::string fingerprint(const BoundSources& data) {
    std::string checksum;
    if (data.scan) {
        std::string files;
        for (const LabeledFile& f : data.scan->train) files += f.path + '\n' + std::to_string(f.label) + '\n';
        checksum = crc32_hex(files);
    } else {  // the tensors in place: a copy would double the peak memory of a large dataset
        const TensorDataset& d = data.tensors.train;
        checksum = crc32_hex({{reinterpret_cast<const char*>(d.images.data()), d.images.size() * sizeof(float)},
                              {reinterpret_cast<const char*>(d.labels.data()), d.labels.size() * sizeof(std::int32_t)}});
    }
    return std::to_string(data.train->size()) + " samples " + checksum;
}

RetentionPolicy retention(const SessionOptions& o, bool has_validation) {
    if (o.keep < 1) throw input_error("checkpoints: keep must be at least 1");
    if (o.best_mode != "auto" && o.best_mode != "min" && o.best_mode != "max")
        throw input_error("checkpoints: the best mode must be min, max or auto");
    RetentionPolicy r;
    r.max_to_keep = o.keep;
    r.best_metric = !o.best_metric.empty() ? o.best_metric : has_validation ? "val_loss" : "loss";
    r.maximize = o.best_mode == "max" || (o.best_mode == "auto" && r.best_metric.find("acc") != std::string::npos);
    return r;
}

// Records a failed run's status without hiding why it failed: when the store cannot take even
// that (a full disk), the message says so; once this process ends the run reads `interrupted`,
// as a killed one does (store/run_owner.h).
void record_failure(RunRecorder& recorder, std::string* message) {
    try {
        recorder.finish(RunStatus::Failed);
    } catch (const std::exception&) {
        if (message) *message += "; its status could not be recorded, so the run will be listed as interrupted";
    }
}

std::string folder_of(const std::string& path) { return std::filesystem::path(path).parent_path().string(); }

// A resumed run continues in the precision it was recorded with: its curve and checkpoints
// would not be one run's otherwise. `asked`: --precision, which must then name that policy.
Precision resumed_precision(const RunInfo& run, const Project& p, std::optional<Precision> asked,
                            SessionListener& out) {
    const Precision recorded = run_precision(run);
    if (asked && *asked != recorded)
        throw input_error("run " + std::to_string(run.id) + " was recorded with precision " + to_string(recorded) +
                          "; a resumed run keeps its precision, so --precision " + to_string(*asked) +
                          " cannot resume it (leave --precision out, or start a new run with it)");
    if (!asked && p.training.precision != recorded)
        out.on_line(std::string("resuming in ") + to_string(recorded) + ", the precision run " + std::to_string(run.id) +
                    " was recorded with (the project's training.precision is " + to_string(p.training.precision) + ")");
    return recorded;
}

std::string floats_text(const std::vector<float>& v) {
    Json j = Json::array();
    for (float x : v) j.push_back(x);
    return j.dump();
}

}  // namespace

// Trainer::fit clears pause and stop requests when it begins; this observer hands the ones
// made before (while the data was being bound) to the trainer once its run has started.
class TrainingSession::RequestGate : public TrainObserver {
public:
    explicit RequestGate(TrainingSession& s) : s_(s) {}
    void on_event(const TrainEvent& e) override {
        if (e.kind != EventKind::RunStarted) return;
        std::lock_guard lock(s_.mutex_);
        if (s_.stop_) s_.trainer_->request_stop();
        else if (s_.pause_) s_.trainer_->request_pause();
    }

private:
    TrainingSession& s_;
};

std::string default_weights_path(const std::string& project_path) {
    std::filesystem::path p(project_path);
    return (p.parent_path() / (p.stem().string() + ".weights.safetensors")).string();
}

std::unique_ptr<BoundSources> bind_project_data(const Project& p, const std::string& project_path) {
    const Model model = Model::shapes_only(p.graph);  // the input's shape is all it needs
    BindOptions o;
    o.input_shape = model.info(model.input_node()).layer.output;
    o.batch_size = p.training.batch_size;
    o.shuffle = p.training.shuffle;
    const std::filesystem::path proj(project_path);
    o.cache_file = (proj.parent_path() / (proj.stem().string() + ".lfcache")).string();
    return bind_sources(p.dataset, p.training.seed, o);
}

std::vector<FileProblem> pipeline_problems(const BoundSources& data) {
    std::vector<FileProblem> problems;
    for (const BatchSource* s : {data.train.get(), data.validation.get(), data.test.get()})
        if (auto* pipe = dynamic_cast<const ImagePipeline*>(s))
            for (const FileProblem& f : pipe->problems()) problems.push_back(f);
    return problems;
}

std::string data_summary(const BoundSources& data) {
    auto count = [](const std::unique_ptr<BatchSource>& s) { return s ? std::to_string(s->size()) : std::string("no"); };
    return "data: " + count(data.train) + " training, " + count(data.validation) + " validation, " +
           count(data.test) + " test samples, " + std::to_string(data.class_names.size()) + " classes";
}

TrainingSession::TrainingSession(Project project, SessionOptions options, SessionListener* listener)
    : project_(std::move(project)), options_(std::move(options)), listener_(listener ? listener : &silent_),
      gate_(std::make_unique<RequestGate>(*this)) {}

TrainingSession::~TrainingSession() = default;

void TrainingSession::set_trainer(Trainer* t) {
    std::lock_guard lock(mutex_);
    trainer_ = t;
}

void TrainingSession::request_pause() {
    std::lock_guard lock(mutex_);
    pause_ = true;
    if (trainer_) trainer_->request_pause();
}

void TrainingSession::request_resume() {
    std::lock_guard lock(mutex_);
    pause_ = false;
    if (trainer_) trainer_->request_resume();
}

void TrainingSession::request_stop(bool finish_up) {
    std::lock_guard lock(mutex_);
    stop_ = true;
    if (!finish_up) finish_up_ = false;
    if (trainer_) trainer_->request_stop();
}

namespace {

// The test metrics (every rank takes part) and, on rank 0, the trained weights: the last of a
// run's outputs.
void save_outcome(const Project& p, const BoundSources& data, Trainer& trainer, Model& model, RunStore* store,
                  const std::string& weights_path, SessionResult& result) {
    if (data.test) {
        result.test = trainer.evaluate(*data.test);
        std::vector<MetricRow> rows;
        for (const auto& [k, v] : result.test->metrics)
            rows.push_back({result.run, trainer.optimizer().iterations(), 0, "test", k, v, 0});
        if (store) store->append_metrics(rows);
    }
    if (!store) return;
    result.weights_path = weights_path;
    std::map<std::string, std::string> meta = {{"format", "layerforge-weights"}, {"project", p.name},
                                               {"classes", Json(data.class_names).dump()}};
    if (!data.mean.empty()) meta["mean"] = floats_text(data.mean), meta["std"] = floats_text(data.std);
    result.weights = encode_weights(model, meta);
    write_file_atomic(result.weights_path, result.weights, "weights");
}

// The processes of a data-parallel run, for the run's settings: `runs compare` shows them.
Json world_json(const Communicator& comm) {
    Json hosts = Json::array();
    for (int r = 0; r < comm.size(); ++r) hosts.push_back(comm.host(r));
    return {{"processes", comm.size()}, {"hosts", hosts}};
}

}  // namespace

SessionResult TrainingSession::run() {
    Project& p = project_;
    const SessionOptions& o = options_;
    Communicator* const comm = o.communicator;
    const bool leader = !comm || comm->rank() == 0;  // the one process that records the run
    SessionListener& out = leader ? *listener_ : silent_;
    const std::string store_path = o.store_path.empty() ? RunStore::path_for_project(o.project_path) : o.store_path;
    std::optional<CheckpointInfo> from;  // the checkpoint a resume continues from
    if (o.resume) {  // its run's precision decides the plans, so it is looked up first
        std::string precision;
        if (leader) {
            RunStore recorded(store_path, false);
            from = recorded.resolve(o.resume->empty() ? "latest" : *o.resume, o.resume_run);
            precision = to_string(resumed_precision(recorded.run(from->run), p, o.precision, out));
        }
        if (comm) comm->broadcast(precision, 0, {"the resumed run's settings", -1, true});
        p.training.precision = parse_precision(precision).value_or(Precision::Float32);
    } else if (o.precision) {
        p.training.precision = *o.precision;
    }
    require_training_fits(p, o.device);  // before the weights are allocated; refuses a precision the device lacks
    Model model(p.graph);
    model.init_weights(std::uint64_t(p.training.seed));
    const std::string start =
        o.resume || o.init == InitialWeights::Random || p.training.initial_weights.empty()
            ? std::string()
            : start_from_weights_file(model, initial_weights_path(o.project_path, p.training.initial_weights), p.training.seed);
    Trainer trainer(model, p.training, o.device);
    trainer.set_communicator(comm);
    trainer.add_observer(gate_.get());
    for (TrainObserver* obs : o.observers) trainer.add_observer(obs);
    trainer.set_log_every(o.log_every);
    // Before the data: a read-only folder or a store that cannot be written stops here, before
    // any file is read or any epoch runs.
    const std::string weights_path = !o.weights_path.empty() ? o.weights_path : default_weights_path(o.project_path);
    std::optional<FileLock> lock;
    std::optional<RunStore> store;
    if (leader) {
        require_writable_folder(folder_of(store_path), "the run store " + store_path + " records the run there");
        require_writable_folder(folder_of(weights_path), "the trained weights go to " + weights_path);
        // One training per run store at a time: the weights, the project file and the store are shared.
        if (o.lock_store)
            lock.emplace(store_path + ".lock",
                         "another training of " + (o.project_path.empty() ? store_path : o.project_path) + " is running");
        store.emplace(store_path, true);
    }

    std::unique_ptr<BoundSources> data = bind_project_data(p, o.project_path);
    out.on_line(data_summary(*data));
    for (const FileProblem& f : data->problems) out.on_line("skipped " + f.path + ": " + f.reason);
    out.on_data_bound(*data);
    if (p.dataset.kind == "image-folder" && p.dataset.classes.empty() && o.fix_class_list) {
        p.dataset.classes = data->class_names;
        if (o.write_project && leader) {
            save_project(p, o.project_path);
            out.on_line("saved the class list in " + o.project_path);
        }
    }
    const RetentionPolicy policy = retention(o, bool(data->validation));

    SessionResult result;
    result.class_names = data->class_names;
    std::optional<TrainState> resume;
    if (o.resume) {
        std::string blob;
        std::string source = "rank 0's checkpoint";
        if (leader) {
            blob = store->checkpoint_blob(from->id);
            source = store->path() + " checkpoint " + std::to_string(from->id);
        }
        if (comm) comm->broadcast(blob, 0, {"the resumed checkpoint", -1, true});
        resume = restore_checkpoint(model, trainer.optimizer(), blob, source);
    }
    if (!leader) {
        // ranks other than 0 skip the run store
    } else if (from) {
        const CheckpointInfo& c = *from;
        result.run = c.run;
        store->delete_metrics_after(result.run, c.step);
        store->set_status(result.run, RunStatus::Running);
        out.on_line("resuming run " + std::to_string(result.run) + " from " + c.name() + " (id " +
                    std::to_string(c.id) + ", epoch " + std::to_string(c.epoch) + ")");
        out.on_resumed(result.run, c);
    } else {
        out.on_line(!start.empty() ? start
                                   : "starting from random weights (seed " + std::to_string(p.training.seed) + ")");
        auto [graph, settings] = snapshots(p);
        if (comm) {
            Json doc = Json::parse(settings);
            doc["distributed"] = world_json(*comm);
            settings = doc.dump();
        }
        RunInfo r;
        r.name = !o.run_name.empty() ? o.run_name : p.name.empty() ? std::string("run") : p.name;
        r.graph = graph;
        r.settings = settings;
        r.dataset_fingerprint = fingerprint(*data);
        r.device = o.device;
        r.notes = o.notes;
        r.tags = o.tags;
        result.run = store->create_run(r);
        out.on_line("run " + std::to_string(result.run) + " recorded in " + store->path());
        out.on_run_created(result.run, store->path());
    }
    if (comm && leader)
        out.on_line("data-parallel: " + std::to_string(comm->size()) + " processes share each batch of " +
                    std::to_string(p.training.batch_size) + " (hosts " + world_json(*comm)["hosts"].dump() + ")");

    std::optional<RunRecorder> recorder;
    std::optional<CheckpointInfo> last_saved;  // named when the run fails: what is safe to restore
    std::optional<tensorboard::TensorBoardLogger> tensorboard;
    if (leader) {
        recorder.emplace(*store, result.run, model, trainer.optimizer(), policy);
        recorder->on_saved = [&](const CheckpointInfo& c) {
            last_saved = c;
            out.on_line("checkpoint " + c.name() + " saved (id " + std::to_string(c.id) + ")");
            out.on_checkpoint(c);
        };
        trainer.add_observer(&*recorder);
        trainer.set_checkpointing(o.checkpoints, &*recorder);
        if (!o.tensorboard_dir.empty()) {
            const std::string folder = (std::filesystem::path(o.tensorboard_dir) /
                                        tensorboard::run_folder_name(store->run(result.run).name, result.run))
                                           .string();
            out.on_line("TensorBoard logs in " + folder + " (view them with: tensorboard --logdir " + o.tensorboard_dir + ")");
            tensorboard.emplace(folder, result.run, from ? std::optional(from->step) : std::nullopt,
                                [&out](const std::string& m) { out.on_line("warning: " + m); });
            trainer.add_observer(&*tensorboard);
        }
    }
    auto fail_run = [&](std::string* message) {
        if (recorder) record_failure(*recorder, message);
    };
    set_trainer(&trainer);
    try {
        result.fit = trainer.fit(*data->train, data->validation.get(), resume ? &*resume : nullptr);
    } catch (...) {  // bad input found by the fit, out of memory: the run ends as failed, its checkpoints stay
        set_trainer(nullptr);
        fail_run(nullptr);  // the error in flight is the one to report
        throw;
    }
    set_trainer(nullptr);
    if (tensorboard) tensorboard->finish();
    if (result.fit.status == RunStatus::Failed) {
        if (last_saved) {
            if (result.fit.message.ends_with('.')) result.fit.message.pop_back();
            result.fit.message += "; the run's last checkpoint, " + last_saved->name() + " (epoch " +
                                  std::to_string(last_saved->epoch) + "), is kept";
        }
        fail_run(&result.fit.message);
    }
    const std::vector<FileProblem> problems = pipeline_problems(*data);
    for (const FileProblem& f : problems) out.on_line("skipped " + f.path + ": " + f.reason);
    if (!problems.empty()) out.on_pipeline_problems(problems);
    if (result.fit.status == RunStatus::Failed) return result;
    if (result.fit.status == RunStatus::Stopped && !finish_up_) {
        if (recorder) recorder->finish(result.fit.status);
        return result;
    }
    // The run is finished only once its weights are on disk: a full disk here fails it.
    try {
        save_outcome(p, *data, trainer, model, store ? &*store : nullptr, weights_path, result);
    } catch (...) {
        fail_run(nullptr);
        throw;
    }
    if (recorder) recorder->finish(result.fit.status);
    if (result.test)
        out.on_line("test  " + metrics_text(result.test->metrics) + "  (" + std::to_string(result.test->samples) +
                    " samples)");
    else
        out.on_line("no test split (add a test/ folder beside train/ to get one)");
    if (leader) out.on_line("weights saved to " + result.weights_path);
    return result;
}

}  // namespace lf
