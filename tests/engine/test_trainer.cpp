// lf::Trainer: convergence on real Fashion-MNIST, the event stream, determinism, stop / pause /
// resume from other threads, divergence, the epoch-end callbacks, evaluate / predict against
// hand-computed values, configuration errors, and steps that allocate nothing.
#include <QFile>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <thread>

#include "alloc_counter.h"
#include "graph_builder.h"
#include "synthetic_data.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "device_plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

using lf::EventKind;
using lf::IntList;

namespace {

// Records every event; hook (if set) runs after recording, on the training thread.
struct Recorder : lf::TrainObserver {
    std::vector<lf::TrainEvent> events;
    std::function<void(const lf::TrainEvent&)> hook;

    void on_event(const lf::TrainEvent& e) override {
        events.push_back(e);
        if (hook) hook(e);
    }
    std::vector<lf::TrainEvent> of(EventKind k) const {
        std::vector<lf::TrainEvent> r;
        for (const auto& e : events)
            if (e.kind == k) r.push_back(e);
        return r;
    }
    std::vector<EventKind> kinds() const {
        std::vector<EventKind> r;
        for (const auto& e : events) r.push_back(e.kind);
        return r;
    }
};

// The named metric, or NaN when the event does not report it.
double metric(const lf::Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    return std::numeric_limits<double>::quiet_NaN();
}

bool has_metric(const lf::Metrics& m, const std::string& name) { return !std::isnan(metric(m, name)); }

lf::Graph tutorial_mlp() { return mlp_builder().graph; }

// A small classifier for the fast tests: Input(4) -> Flatten -> Dense(8, relu) -> Dense(3) -> Softmax.
lf::Graph small_mlp() { return mlp_builder({4}, 8, "relu", 3).graph; }


lf::Model make_model(const lf::Graph& g, std::uint64_t init_seed = 1) {
    lf::Model m(g);
    m.init_weights(init_seed);
    return m;
}

lf::TrainingConfig sgd_config(double lr, std::int64_t epochs, std::int64_t batch = 10) {
    lf::TrainingConfig c;
    c.optimizer = {"SGD", {{"learning_rate", lr}}};
    c.epochs = epochs;
    c.batch_size = batch;
    return c;
}

struct Run {
    lf::FitResult result;
    Recorder rec;
    std::vector<float> weights;
};

// Fits the small MLP on `train` (and `validation`), recording every event.
Run fit_small(const lf::TrainingConfig& config, const lf::TensorDataset& train,
              const lf::TensorDataset* validation = nullptr, std::uint64_t init_seed = 1,
              std::int64_t log_every = 1) {
    lf::Model model = make_model(small_mlp(), init_seed);
    lf::Trainer trainer(model, config);
    Run run;
    trainer.add_observer(&run.rec);
    trainer.set_log_every(log_every);
    run.result = trainer.fit(train, validation);
    run.weights = model.weights();
    return run;
}

// Fits the small MLP (40 samples, batch 10) for `epochs`, pausing from the observer at `step`;
// after `delay` another thread calls `then` (request_resume or request_stop) on the trainer.
struct PausedRun {
    lf::FitResult result;
    Recorder rec;
    std::chrono::steady_clock::duration elapsed{};
};
PausedRun fit_paused_at(std::int64_t step, std::int64_t epochs, std::chrono::milliseconds delay,
                        void (lf::Trainer::*then)()) {
    const lf::TensorDataset train = synthetic(40);
    lf::Model model = make_model(small_mlp());
    lf::Trainer trainer(model, sgd_config(0.1, epochs, 10));
    PausedRun run;
    std::thread other;
    run.rec.hook = [&](const lf::TrainEvent& e) {
        if (e.kind != EventKind::Step || e.step != step) return;
        trainer.request_pause();
        other = std::thread([&] {
            std::this_thread::sleep_for(delay);
            (trainer.*then)();
        });
    };
    trainer.add_observer(&run.rec);
    trainer.set_log_every(1);
    const auto t0 = std::chrono::steady_clock::now();
    run.result = trainer.fit(train, nullptr);
    run.elapsed = std::chrono::steady_clock::now() - t0;
    if (other.joinable()) other.join();
    run.rec.hook = nullptr;  // it refers to this frame's trainer
    return run;
}

// Losses of every Step and EpochEnd event, in order.
std::vector<double> loss_history(const Recorder& rec) {
    std::vector<double> r;
    for (const auto& e : rec.events)
        if (e.kind == EventKind::Step || e.kind == EventKind::EpochEnd) r.push_back(metric(e.metrics, "loss"));
    return r;
}

}  // namespace

class TestTrainer : public QObject {
    Q_OBJECT
private slots:
    // 1. The tutorial MLP learns Fashion-MNIST: 120 Adam steps on 3000 samples.
    void tutorial_mlp_learns_fashion_mnist() {
        if (!QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
            QFAIL("dataset-fashion-mnist is not installed: run scripts/setup.sh");
        const lf::DatasetSplits data = lf::load_fashion_mnist("", 3000, 1000);
        QCOMPARE(data.train.size(), std::int64_t(3000));
        QCOMPARE(data.test.size(), std::int64_t(1000));

        lf::Model model = make_model(tutorial_mlp(), 42);
        lf::TrainingConfig config;  // Adam 1e-3, SparseCategoricalCrossentropy, batch 50, accuracy
        config.epochs = 2;
        lf::Trainer trainer(model, config);
        Recorder rec;
        trainer.add_observer(&rec);
        trainer.set_log_every(10);

        const double initial = metric(trainer.evaluate(data.train).metrics, "loss");
        LF_COMPARE_NEAR(initial, std::log(10.0), 0.3);  // an untrained 10-way softmax

        const lf::FitResult r = trainer.fit(data.train, nullptr);
        QCOMPARE(r.status, lf::RunStatus::Finished);
        QCOMPARE(r.steps, std::int64_t(120));
        const auto steps = rec.of(EventKind::Step);
        QVERIFY(!steps.empty());
        const double first_window = metric(steps.front().metrics, "loss");
        const double last_epoch = metric(r.history.back(), "loss");
        QVERIFY2(first_window > last_epoch, qPrintable(QString("%1 -> %2").arg(first_window).arg(last_epoch)));
        QVERIFY2(last_epoch < 0.5 * initial, qPrintable(QString("initial %1, last epoch %2").arg(initial).arg(last_epoch)));

        const lf::EvalResult test = trainer.evaluate(data.test);
        QCOMPARE(test.samples, std::int64_t(1000));
        const double accuracy = metric(test.metrics, "accuracy");
        QVERIFY2(accuracy > 0.7, qPrintable(QString("test accuracy %1").arg(accuracy)));

        // predict agrees with evaluate: the argmax accuracy of the probabilities is the same.
        const std::vector<float> p = trainer.predict(data.test);
        QCOMPARE(p.size(), std::size_t(1000 * 10));
        std::int64_t correct = 0;
        for (std::int64_t i = 0; i < 1000; ++i) {
            const float* row = p.data() + i * 10;
            correct += std::max_element(row, row + 10) - row == data.test.labels[std::size_t(i)];
        }
        LF_COMPARE_NEAR(double(correct) / 1000.0, accuracy, 1e-12);
    }

    // 2. The event stream of a run whose dataset size is not a multiple of the batch size.
    void events_with_partial_last_batch() {
        const lf::TensorDataset train = synthetic(105), validation = synthetic(20, 2);
        lf::TrainingConfig config = sgd_config(0.1, 2, 50);
        const Run run = fit_small(config, train, &validation);
        const auto& ev = run.rec.events;

        // RunStarted, Step 1, Step 2, EpochEnd (step 3), Step 4, Step 5, EpochEnd (step 6), Finished.
        const std::vector<EventKind> expected{EventKind::RunStarted, EventKind::Step,     EventKind::Step,
                                              EventKind::EpochEnd,   EventKind::Step,     EventKind::Step,
                                              EventKind::EpochEnd,   EventKind::Finished};
        QCOMPARE(run.rec.kinds(), expected);
        for (const auto& e : ev) {
            QCOMPARE(e.steps_per_epoch, std::int64_t(3));  // 50 + 50 + 5
            QCOMPARE(e.total_steps, std::int64_t(6));
            QCOMPARE(e.epochs, std::int64_t(2));
        }
        const auto steps = run.rec.of(EventKind::Step);
        const std::vector<std::int64_t> step_numbers{1, 2, 4, 5}, step_epochs{1, 1, 2, 2};
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].step, step_numbers[i]);
            QCOMPARE(steps[i].epoch, step_epochs[i]);
            QVERIFY(steps[i].images_per_second > 0);
            QVERIFY(has_metric(steps[i].metrics, "loss"));
            QVERIFY(has_metric(steps[i].metrics, "accuracy"));
            QVERIFY(!has_metric(steps[i].metrics, "val_loss"));
            QCOMPARE(steps[i].learning_rate, 0.1);
        }
        const auto epochs = run.rec.of(EventKind::EpochEnd);
        for (std::size_t i = 0; i < epochs.size(); ++i) {
            QCOMPARE(epochs[i].epoch, std::int64_t(i + 1));
            QCOMPARE(epochs[i].step, std::int64_t(3 * (i + 1)));
            for (const char* m : {"loss", "accuracy", "val_loss", "val_accuracy", "lr"})
                QVERIFY2(has_metric(epochs[i].metrics, m), m);
            QVERIFY(epochs[i].metrics == run.result.history[i]);
        }
        QCOMPARE(ev.back().message, std::string());
        QCOMPARE(ev.back().step, std::int64_t(6));
        QCOMPARE(run.result.status, lf::RunStatus::Finished);
        QCOMPARE(run.result.steps, std::int64_t(6));
        QCOMPARE(run.result.epochs_run, std::int64_t(2));
        QCOMPARE(run.result.history.size(), std::size_t(2));

        // Without a validation set there are no val_ metrics; log_every 2 keeps every 2nd step.
        const Run quiet = fit_small(config, train, nullptr, 1, 2);
        QCOMPARE(quiet.rec.of(EventKind::Step).size(), std::size_t(2));  // steps 2 and 5
        QCOMPARE(quiet.rec.of(EventKind::Step).back().step, std::int64_t(5));
        QVERIFY(!has_metric(quiet.result.history[0], "val_loss"));
        // Same seed, same data: the validation set does not change training.
        QVERIFY(quiet.weights == run.weights);
    }

    // 3. Same seed: identical runs; another seed shuffles differently.
    void same_seed_same_run() {
        const lf::TensorDataset train = synthetic(60);
        lf::TrainingConfig config;  // Adam
        config.epochs = 3;
        config.batch_size = 8;
        config.seed = 7;
        const Run a = fit_small(config, train), b = fit_small(config, train);
        QCOMPARE(loss_history(a.rec).size(), std::size_t(3 * 8));
        QVERIFY(loss_history(a.rec) == loss_history(b.rec));
        QVERIFY(a.weights == b.weights);

        config.seed = 8;
        const Run c = fit_small(config, train);
        QVERIFY(loss_history(a.rec) != loss_history(c.rec));
        QVERIFY(a.weights != c.weights);
    }

    // 4a. request_stop from an observer: the fit ends after that step.
    void stop_from_observer() {
        const lf::TensorDataset train = synthetic(40);
        lf::Model model = make_model(small_mlp());
        lf::Trainer trainer(model, sgd_config(0.1, 100000, 10));
        Recorder rec;
        rec.hook = [&](const lf::TrainEvent& e) {
            if (e.kind == EventKind::Step && e.step == 5) trainer.request_stop();
        };
        trainer.add_observer(&rec);
        trainer.set_log_every(1);
        const auto t0 = std::chrono::steady_clock::now();
        const lf::FitResult r = trainer.fit(train, nullptr);
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
        QCOMPARE(r.status, lf::RunStatus::Stopped);
        QCOMPARE(r.steps, std::int64_t(5));
        QCOMPARE(rec.events.back().kind, EventKind::Stopped);
        QCOMPARE(rec.events.back().step, std::int64_t(5));
        QVERIFY(rec.of(EventKind::Finished).empty());
        QVERIFY(rec.events.back().message.find("stopped") != std::string::npos);
    }

    // 4b. Stop requested by another thread while the fit is paused: it wakes and stops.
    void stop_from_another_thread_while_paused() {
        const PausedRun run = fit_paused_at(5, 100000, std::chrono::milliseconds(30), &lf::Trainer::request_stop);
        QCOMPARE(run.result.status, lf::RunStatus::Stopped);
        QCOMPARE(run.result.steps, std::int64_t(5));
        const auto kinds = run.rec.kinds();
        const std::vector<EventKind> tail(kinds.end() - 4, kinds.end());
        QCOMPARE(tail, (std::vector<EventKind>{EventKind::Step, EventKind::Paused, EventKind::Resumed,
                                               EventKind::Stopped}));
    }

    // 4c. Paused from an observer, resumed by another thread: every step still runs.
    void pause_and_resume() {
        const PausedRun run = fit_paused_at(2, 3, std::chrono::milliseconds(50), &lf::Trainer::request_resume);
        QVERIFY(run.elapsed >= std::chrono::milliseconds(50));
        QCOMPARE(run.result.status, lf::RunStatus::Finished);
        QCOMPARE(run.result.steps, std::int64_t(12));
        const auto paused = run.rec.of(EventKind::Paused), resumed = run.rec.of(EventKind::Resumed);
        QCOMPARE(paused.size(), std::size_t(1));
        QCOMPARE(resumed.size(), std::size_t(1));
        QCOMPARE(paused[0].step, std::int64_t(2));
        QCOMPARE(resumed[0].step, std::int64_t(2));
        const auto kinds = run.rec.kinds();
        const auto at = std::find(kinds.begin(), kinds.end(), EventKind::Paused);
        QCOMPARE(*(at - 1), EventKind::Step);
        QCOMPARE(*(at + 1), EventKind::Resumed);
        QCOMPARE(kinds.back(), EventKind::Finished);
    }

    // 5. A learning rate that blows the weights up: the run fails with a helpful message.
    void diverging_loss_fails() {
        const lf::TensorDataset train = synthetic(40);
        const Run run = fit_small(sgd_config(1e30, 5, 10), train);
        QCOMPARE(run.result.status, lf::RunStatus::Failed);
        QVERIFY(run.result.steps < 20);
        const lf::TrainEvent& last = run.rec.events.back();
        QCOMPARE(last.kind, EventKind::Failed);
        QCOMPARE(last.message, run.result.message);
        QVERIFY2(last.message.find("NaN") != std::string::npos || last.message.find("infinite") != std::string::npos,
                 last.message.c_str());
        QVERIFY2(last.message.find("learning rate") != std::string::npos, last.message.c_str());
        QVERIFY(run.rec.of(EventKind::Finished).empty());
    }

    // 6a. EarlyStopping(restore_best_weights): min_delta so large that only epoch 1 improves.
    void early_stopping_restores_best_weights() {
        const lf::TensorDataset train = synthetic(40), validation = synthetic(20, 2);
        for (bool restore : {true, false}) {
            lf::TrainingConfig config = sgd_config(0.1, 10, 10);
            config.callbacks = {{"EarlyStopping",
                                 {{"monitor", std::string("val_loss")},
                                  {"min_delta", 1e9},
                                  {"patience", std::int64_t(1)},
                                  {"restore_best_weights", restore}}}};
            lf::Model model = make_model(small_mlp());
            lf::Trainer trainer(model, config);
            Recorder rec;
            std::vector<std::vector<float>> snapshots;
            rec.hook = [&](const lf::TrainEvent& e) {
                if (e.kind == EventKind::EpochEnd) snapshots.push_back(model.weights());
            };
            trainer.add_observer(&rec);
            const lf::FitResult r = trainer.fit(train, &validation);
            QCOMPARE(r.status, lf::RunStatus::EarlyStopped);
            QCOMPARE(r.epochs_run, std::int64_t(2));
            QCOMPARE(snapshots.size(), std::size_t(2));
            QVERIFY(snapshots[0] != snapshots[1]);
            QCOMPARE(rec.events.back().kind, EventKind::Finished);
            QVERIFY2(rec.events.back().message.find("after epoch 1") != std::string::npos,
                     rec.events.back().message.c_str());
            QVERIFY(model.weights() == (restore ? snapshots[0] : snapshots[1]));
        }
    }

    // 6b. ReduceLROnPlateau(patience 0, factor 0.5) on a monitor that never improves again.
    void reduce_lr_on_plateau_halves_the_rate() {
        const lf::TensorDataset train = synthetic(40);
        lf::TrainingConfig config = sgd_config(0.1, 4, 10);
        config.callbacks = {{"ReduceLROnPlateau",
                             {{"monitor", std::string("loss")},
                              {"factor", 0.5},
                              {"patience", std::int64_t(0)},
                              {"min_delta", 1e9}}}};
        const Run run = fit_small(config, train);
        QCOMPARE(run.result.status, lf::RunStatus::Finished);
        // Epoch 1 improves (the first value); the end of every later epoch halves the rate
        // used from the next epoch on.
        const double expected[] = {0.1, 0.1, 0.05, 0.025};
        for (const auto& e : run.rec.events)
            if (e.kind == EventKind::Step || e.kind == EventKind::EpochEnd)
                LF_COMPARE_NEAR(e.learning_rate, expected[e.epoch - 1], 1e-15);
        for (std::size_t i = 0; i < 4; ++i) LF_COMPARE_NEAR(metric(run.result.history[i], "lr"), expected[i], 1e-15);
    }

    // 6c. A second fit on the same Trainer starts its callbacks afresh, as Keras callbacks reset
    // in on_train_begin; only the optimizer state carries over.
    void second_fit_starts_callbacks_afresh() {
        const lf::TensorDataset train = synthetic(40), validation = synthetic(20, 2);
        lf::TrainingConfig config = sgd_config(0.1, 10, 10);
        config.callbacks = {{"EarlyStopping", {{"min_delta", 1e9}, {"patience", std::int64_t(1)}}},
                            {"ReduceLROnPlateau",
                             {{"factor", 0.5}, {"patience", std::int64_t(0)}, {"min_delta", 1e9}}}};
        lf::Model model = make_model(small_mlp());
        lf::Trainer trainer(model, config);
        for (int run = 0; run < 2; ++run) {
            const lf::FitResult r = trainer.fit(train, &validation);
            QCOMPARE(r.status, lf::RunStatus::EarlyStopped);
            QCOMPARE(r.epochs_run, std::int64_t(2));
            QVERIFY2(r.message.find("after epoch 1") != std::string::npos, r.message.c_str());
            QCOMPARE(metric(r.history[0], "lr"), 0.1);
            QCOMPARE(metric(r.history[1], "lr"), 0.1);
        }
        QCOMPARE(trainer.optimizer().iterations(), std::int64_t(16));
    }

    // 7. evaluate and predict against hand-computed values: Dense(2) with identity kernel and
    // zero bias, so the logits are the inputs.
    void evaluate_and_predict_hand_computed() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2}}});
        auto d = b.add("Dense", {{"units", std::int64_t(2)}}, {in});
        b.add("Softmax", {}, {d});
        lf::Model model(b.graph);
        const lf::WeightRef* kernel = model.find_weight(d + "/kernel");
        const lf::WeightRef* bias = model.find_weight(d + "/bias");
        QVERIFY(kernel && bias);
        QCOMPARE(kernel->size, std::size_t(4));
        float* w = model.weights().data();
        const float identity[] = {1, 0, 0, 1};
        std::copy(identity, identity + 4, w + kernel->offset);
        std::fill(w + bias->offset, w + bias->offset + bias->size, 0.f);

        lf::TensorDataset data;
        data.sample_shape = lf::Shape{2};
        data.class_names = {"zero", "one"};
        data.images = {1, 0, /**/ 0, 2, /**/ 0, 1};
        data.labels = {0, 0, 1};  // right, wrong, right
        lf::TrainingConfig config;
        config.batch_size = 2;  // a full batch and a partial one
        lf::Trainer trainer(model, config);

        const lf::EvalResult r = trainer.evaluate(data);
        QCOMPARE(r.samples, std::int64_t(3));
        QCOMPARE(r.metrics.front().first, std::string("loss"));
        // loss = logsumexp(z) - z_label: log(1 + e^-1) twice and log(1 + e^2) once.
        const double loss = (2 * std::log1p(std::exp(-1.0)) + std::log1p(std::exp(2.0))) / 3;
        LF_COMPARE_NEAR(metric(r.metrics, "loss"), loss, 1e-6);
        LF_COMPARE_NEAR(metric(r.metrics, "accuracy"), 2.0 / 3.0, 1e-12);

        const std::vector<float> p = trainer.predict(data);
        QCOMPARE(p.size(), std::size_t(3 * 2));
        for (std::size_t i = 0; i < 3; ++i) LF_COMPARE_NEAR(p[2 * i] + p[2 * i + 1], 1.0, 1e-6);
        const double s1 = 1 / (1 + std::exp(-1.0)), s2 = 1 / (1 + std::exp(-2.0));
        LF_COMPARE_NEAR(p[0], s1, 1e-6);
        LF_COMPARE_NEAR(p[3], s2, 1e-6);
        LF_COMPARE_NEAR(p[5], s1, 1e-6);

        lf::TensorDataset empty = data;
        empty.images.clear();
        empty.labels.clear();
        QCOMPARE(trainer.evaluate(empty).samples, std::int64_t(0));
        QVERIFY(trainer.predict(empty).empty());
    }

    // 8. Configuration and data errors name what is wrong.
    void config_errors_name_the_field() {
        lf::Model model = make_model(small_mlp());
        auto trainer_with = [&](const std::function<void(lf::TrainingConfig&)>& change) {
            lf::TrainingConfig c;
            change(c);
            lf::Trainer t(model, c);
        };
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.loss = "Hinge"; }), "training.loss", "Hinge");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.optimizer.type = "Adagrad"; }), "training.optimizer",
                              "Adagrad");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.optimizer.params["learning_rate"] = -1.0; }),
                              "training.optimizer", "learning_rate");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.metrics = {"f1"}; }), "training.metrics", "f1");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.schedule.type = "warmup"; }), "training.schedule",
                              "warmup");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.callbacks = {{"ModelCheckpoint", {}}}; }),
                              "training.callbacks", "ModelCheckpoint");
        LF_EXPECT_INPUT_ERROR(
            trainer_with([](auto& c) { c.callbacks = {{"EarlyStopping", {{"patience", std::int64_t(-1)}}}}; }),
            "training.callbacks", "patience");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.batch_size = 0; }), "training.batch_size");
        LF_EXPECT_INPUT_ERROR(trainer_with([](auto& c) { c.epochs = -1; }), "training.epochs");

        lf::Trainer trainer(model, lf::TrainingConfig{});
        lf::TensorDataset wrong_shape = synthetic(10);
        wrong_shape.sample_shape = lf::Shape{2, 2};
        LF_EXPECT_INPUT_ERROR(trainer.fit(wrong_shape, nullptr), "training", "2, 2)", "Input");
        LF_EXPECT_INPUT_ERROR(trainer.evaluate(wrong_shape), "evaluation", "Input");
        LF_EXPECT_INPUT_ERROR(trainer.predict(wrong_shape), "prediction", "Input");
        const lf::TensorDataset good = synthetic(10);
        LF_EXPECT_INPUT_ERROR(trainer.fit(good, &wrong_shape), "validation", "Input");

        lf::TensorDataset big_label = synthetic(10);
        big_label.labels[3] = 3;  // the output layer has 3 units
        LF_EXPECT_INPUT_ERROR(trainer.fit(big_label, nullptr), "label 3", "output");
        big_label.labels[3] = -1;
        LF_EXPECT_INPUT_ERROR(trainer.fit(big_label, nullptr), "label -1");
        lf::TensorDataset many_classes = synthetic(10);
        many_classes.class_names.push_back("d");
        LF_EXPECT_INPUT_ERROR(trainer.fit(many_classes, nullptr), "3 units", "4 classes");
        lf::TensorDataset empty = synthetic(0);
        LF_EXPECT_INPUT_ERROR(trainer.fit(empty, nullptr), "empty");

        lf::TrainingConfig monitors_nothing;
        monitors_nothing.callbacks = {{"EarlyStopping", {}}};  // val_loss without a validation set
        lf::Trainer no_val(model, monitors_nothing);
        LF_EXPECT_INPUT_ERROR(no_val.fit(good, nullptr), "val_loss");
    }

    // 9. After the first epoch a training step allocates nothing beyond what the plan's oneDNN
    //    primitives do inside every execution (test_plan pins that count), even for an observer
    //    that wants every step (a run store) and with a metric name too long for a short
    //    string: the running metrics are refreshed in place. Counted between consecutive Step
    //    events of one epoch, so the epoch's end (validation, history) is not counted.
    void steps_allocate_nothing_after_the_first_epoch() {
        struct Counter : lf::TrainObserver {
            std::vector<std::pair<std::int64_t, long>> at;  // (epoch, allocations so far) per Step
            bool wants_every_step() const override { return true; }
            void on_event(const lf::TrainEvent& e) override {
                if (e.kind == EventKind::Step && at.size() < at.capacity()) at.emplace_back(e.epoch, lf_test::allocations.load());
            }
        } counter;
        counter.at.reserve(64);
        lf::TrainingConfig config = sgd_config(0.05, 3, 8);
        config.metrics = {"accuracy", "sparse_categorical_accuracy"};
        const lf::TensorDataset train = synthetic(48), validation = synthetic(12, 2);  // 6 steps an epoch
        lf::Model model = make_model(small_mlp());
        lf::Trainer trainer(model, config);
        trainer.add_observer(&counter);
        trainer.set_log_every(1);
        QCOMPARE(trainer.fit(train, &validation).status, lf::RunStatus::Finished);
        QCOMPARE(counter.at.size(), std::size_t(3 * 6));

        lf::Model bare_model = make_model(small_mlp());  // the same step on a bare plan
        lf::test::DevicePlan plan(bare_model, {.batch = 8, .mode = lf::PlanMode::Train});
        const auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        const std::vector<std::int32_t> labels(8, 1);
        plan.train_step(labels.data(), *loss);
        const long per_plan_step = lf_test::allocations_during([&] { plan.train_step(labels.data(), *loss); });
        for (std::size_t i = 1; i < counter.at.size(); ++i)
            if (counter.at[i].first > 1 && counter.at[i].first == counter.at[i - 1].first)
                QCOMPARE(counter.at[i].second - counter.at[i - 1].second, per_plan_step);
    }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"
#include "run_status_text.h"
