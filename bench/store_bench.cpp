// Run-store benchmark: checkpoint save and restore throughput for a ~100 MB model against a
// plain file write/read of the same bytes on the same disk, and the training-step overhead of
// recording every step's metrics (RunRecorder + MetricWriter) against no recording.
//   store_bench [FOLDER]   (default: the current folder; files are removed afterwards)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <vector>

#include "layerforge/core/file_io.h"
#include "layerforge/run/run_recorder.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

lf::Graph mlp(std::int64_t in, std::int64_t hidden, std::int64_t out) {
    lf::Graph g;
    g.nodes = {{"input", "Input", "input", {{"shape", lf::IntList{in}}}, 0, 0},
               {"dense", "Dense", "dense", {{"units", hidden}, {"activation", std::string("relu")}}, 0, 0},
               {"dense_1", "Dense", "dense_1", {{"units", out}}, 0, 0},
               {"softmax", "Softmax", "softmax", {}, 0, 0}};
    g.edges = {{{"input", 0}, {"dense", 0}}, {{"dense", 0}, {"dense_1", 0}}, {{"dense_1", 0}, {"softmax", 0}}};
    return g;
}

lf::TensorDataset synthetic(std::int64_t n, std::int64_t width, std::int64_t classes) {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{width};
    for (std::int64_t c = 0; c < classes; ++c) d.class_names.push_back(std::to_string(c));
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(0, 1);
    d.images.resize(std::size_t(n * width));
    for (float& v : d.images) v = u(rng);
    for (std::int64_t i = 0; i < n; ++i) d.labels.push_back(std::int32_t(i % classes));
    return d;
}

double mb(std::size_t bytes) { return double(bytes) / 1e6; }

void checkpoint_throughput(const std::string& folder) {
    lf::Model model(mlp(4000, 6000, 167));  // 25.0 M parameters: 100 MB of float32
    model.init_weights(1);
    auto opt = lf::make_optimizer("SGD", {});  // no slots: the blob is the weights
    opt->bind(model.weights().size());
    const std::string db = folder + "/bench.lfruns", plain = folder + "/bench.plain";
    std::filesystem::remove(db);
    lf::RunStore store(db);
    const std::int64_t run = store.create_run({.name = "bench", .graph = "{}", .settings = "{}"});
    const int reps = 3;
    double t_save = 1e9, t_encode = 1e9, t_plain = 1e9, t_restore = 1e9, t_read = 1e9;
    std::size_t bytes = 0;
    for (int r = 0; r < reps; ++r) {
        lf::TrainState s;
        s.iterations = r + 1;
        auto t0 = Clock::now();
        std::string blob = lf::encode_checkpoint(model, *opt, s);
        t_encode = std::min(t_encode, since(t0));
        auto t1 = Clock::now();
        const std::int64_t id = store.save_checkpoint(run, r + 1, 1, "{}", blob, {.max_to_keep = 1});
        t_save = std::min(t_save, since(t0));
        (void)t1;
        bytes = blob.size();
        auto t2 = Clock::now();
        lf::write_file_atomic(plain, blob, "benchmark");  // temp file, fsync, rename
        t_plain = std::min(t_plain, since(t2));

        auto t3 = Clock::now();
        lf::restore_checkpoint(model, *opt, store.checkpoint_blob(id), "bench");
        t_restore = std::min(t_restore, since(t3));
        auto t4 = Clock::now();
        std::string back = lf::read_file(plain, "benchmark", blob.size());
        t_read = std::min(t_read, since(t4));
    }
    std::printf("checkpoint of %.1f MB (best of %d)\n", mb(bytes), reps);
    std::printf("  save    (encode + checksum + SQLite commit, synchronous=FULL): %7.0f MB/s  (%.3f s; encode %.3f s)\n",
                mb(bytes) / t_save, t_save, t_encode);
    std::printf("  plain file write (write + fsync + rename):                      %7.0f MB/s  (%.3f s)\n",
                mb(bytes) / t_plain, t_plain);
    std::printf("  restore (read + checksum + decode into the model):              %7.0f MB/s  (%.3f s)\n",
                mb(bytes) / t_restore, t_restore);
    std::printf("  plain file read:                                                %7.0f MB/s  (%.3f s)\n",
                mb(bytes) / t_read, t_read);
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    std::filesystem::remove(plain);
}

// CPU seconds of the calling thread: what the training thread itself spends, whatever else
// runs on the machine (with OMP_NUM_THREADS=1 the whole step runs on it).
double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Seconds per step of a fit, with or without a RunRecorder on the trainer; *cpu: the process's
// CPU seconds per step (every thread: the trainer's and the metric writer's); *trainer_cpu:
// the training thread's alone.
double fit_seconds_per_step(const std::string& folder, bool record, std::int64_t* rows, double* cpu,
                            double* trainer_cpu) {
    lf::Model model(mlp(784, 100, 10));
    model.init_weights(1);
    lf::TrainingConfig cfg;
    cfg.epochs = 10;  // 4,000 steps: long enough that one scheduling hiccup does not decide a round
    cfg.batch_size = 32;
    lf::Trainer trainer(model, cfg);
    const lf::TensorDataset data = synthetic(12800, 784, 10);
    const std::string db = folder + "/metrics.lfruns";
    std::filesystem::remove(db);
    lf::RunStore store(db);
    const std::int64_t run = store.create_run({.name = "bench", .graph = "{}", .settings = "{}"});
    std::unique_ptr<lf::RunRecorder> rec;
    if (record) {
        rec = std::make_unique<lf::RunRecorder>(store, run, model, trainer.optimizer(), lf::RetentionPolicy{});
        trainer.add_observer(rec.get());
    }
    auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    const double thread0 = thread_cpu_seconds();
    lf::FitResult r = trainer.fit(data, nullptr);
    *trainer_cpu = (thread_cpu_seconds() - thread0) / double(r.steps);
    if (rec) rec->finish(r.status);  // the last rows are committed inside the timing
    const double t = since(t0);
    *cpu = double(std::clock() - c0) / CLOCKS_PER_SEC / double(r.steps);
    *rows = std::int64_t(store.metrics(run).size());
    rec.reset();
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    return t / double(r.steps);
}

void logging_overhead(const std::string& folder) {
    // Alternating rounds, the median of the per-round ratios with their spread: the machine is
    // shared and its speed drifts between minutes.
    constexpr int kRounds = 8;
    std::vector<double> ratios, cpu_ratios, trainer_ratios;
    double with = 1e9, without = 1e9;
    std::int64_t rows = 0, none = 0;
    for (int r = 0; r < kRounds; ++r) {
        double off_cpu = 0, on_cpu = 0, off_trainer = 0, on_trainer = 0, off = 0, on = 0;
        if (r % 2 == 0) {  // each side first in half the rounds: the first fit of a pair runs colder
            off = fit_seconds_per_step(folder, false, &none, &off_cpu, &off_trainer);
            on = fit_seconds_per_step(folder, true, &rows, &on_cpu, &on_trainer);
        } else {
            on = fit_seconds_per_step(folder, true, &rows, &on_cpu, &on_trainer);
            off = fit_seconds_per_step(folder, false, &none, &off_cpu, &off_trainer);
        }
        ratios.push_back(on / off);
        cpu_ratios.push_back(on_cpu / off_cpu);
        trainer_ratios.push_back(on_trainer / off_trainer);
        without = std::min(without, off);
        with = std::min(with, on);
    }
    std::sort(ratios.begin(), ratios.end());
    std::sort(cpu_ratios.begin(), cpu_ratios.end());
    std::sort(trainer_ratios.begin(), trainer_ratios.end());
    std::printf("metric logging (MLP 784-100-10, batch 32, 4,000 steps, %lld rows recorded)\n", (long long)rows);
    std::printf("  step without recording: %.1f us (best of %d)\n", without * 1e6, kRounds);
    std::printf("  step with recording:    %.1f us (best of %d)\n", with * 1e6, kRounds);
    std::printf("  overhead:               %+.2f %% median over %d alternating rounds [%+.2f .. %+.2f]  (goal: under 1 %%)\n",
                (ratios[kRounds / 2] - 1) * 100, kRounds, (ratios.front() - 1) * 100, (ratios.back() - 1) * 100);
    // CPU time is what a busy machine pays: the writer thread's work taken from other jobs.
    std::printf("  CPU time overhead:      %+.2f %% median [%+.2f .. %+.2f]\n", (cpu_ratios[kRounds / 2] - 1) * 100,
                (cpu_ratios.front() - 1) * 100, (cpu_ratios.back() - 1) * 100);
    std::printf("  training thread's CPU:  %+.2f %% median [%+.2f .. %+.2f]  (what recording costs the trainer itself)\n",
                (trainer_ratios[kRounds / 2] - 1) * 100, (trainer_ratios.front() - 1) * 100,
                (trainer_ratios.back() - 1) * 100);
}

// The metric writer's own work, without a trainer beside it: what one recorded row costs the
// writer thread (append_metrics with schema 5's summaries and levels), in transactions of the
// size a 250 ms flush gathers from a ~160 us step (about 3,000 rows).
void writer_cost(const std::string& folder) {
    const std::string db = folder + "/writer.lfruns";
    std::filesystem::remove(db);
    double best = 1e9;
    constexpr std::int64_t kRows = 30000, kBatch = 3000;
    for (int round = 0; round < 3; ++round) {
        lf::RunStore store(db);
        const std::int64_t run = store.create_run({.name = "writer", .graph = "{}", .settings = "{}"});
        std::vector<lf::MetricRow> batch;
        const std::clock_t c0 = std::clock();
        for (std::int64_t i = 0; i < kRows; i += 2) {
            const std::int64_t step = i / 2 + 1;
            batch.push_back({run, step, 1 + step / 400, "train", "loss", 1.0 / double(step), 0});
            batch.push_back({run, step, 1 + step / 400, "train", "accuracy", 1 - 1.0 / double(step), 0});
            if (std::int64_t(batch.size()) == kBatch) {
                store.append_metrics(batch);
                batch.clear();
            }
        }
        best = std::min(best, double(std::clock() - c0) / CLOCKS_PER_SEC);
    }
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    std::printf("metric writer alone: %.2f us CPU per row (best of 3, %lld rows in transactions of %lld)\n",
                best / double(kRows) * 1e6, (long long)kRows, (long long)kBatch);
}

// What recording adds to each training step on the training thread, measured without the
// noise of a whole fit: RunRecorder::on_event for a step event with loss and accuracy (the
// trainer reuses one event, so this is all it pays), the writer committing beside it.
void recorder_call_cost(const std::string& folder) {
    const std::string db = folder + "/recorder.lfruns";
    std::filesystem::remove(db);
    lf::Model model(mlp(784, 100, 10));
    model.init_weights(1);
    lf::TrainingConfig cfg;
    lf::Trainer trainer(model, cfg);
    constexpr std::int64_t kSteps = 200000;
    double best = 1e9;
    {
        lf::RunStore store(db);
        const std::int64_t run = store.create_run({.name = "recorder", .graph = "{}", .settings = "{}"});
        lf::RunRecorder rec(store, run, model, trainer.optimizer(), lf::RetentionPolicy{});
        lf::TrainEvent e;
        e.kind = lf::EventKind::Step;
        e.epoch = 1;
        e.metrics = {{"loss", 0.5}, {"accuracy", 0.8}};
        for (int round = 0; round < 3; ++round) {
            const double t0 = thread_cpu_seconds();
            for (std::int64_t i = 0; i < kSteps; ++i) {
                e.step = round * kSteps + i + 1;
                e.metrics[0].second = 1.0 / double(e.step);
                rec.on_event(e);
            }
            best = std::min(best, thread_cpu_seconds() - t0);
        }
        rec.finish(lf::RunStatus::Finished);
    }
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    std::printf("recording on the training thread: %.0f ns CPU per step (RunRecorder::on_event, 2 metrics, best of 3 x %lld)\n",
                best / double(kSteps) * 1e9, (long long)kSteps);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string folder = argc > 1 ? argv[1] : ".";
    checkpoint_throughput(folder);
    logging_overhead(folder);
    writer_cost(folder);
    recorder_call_cost(folder);
}
