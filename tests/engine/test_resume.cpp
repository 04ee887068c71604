// Resuming a fit from a TrainState: a run interrupted at any checkpoint (mid-epoch or at an
// epoch boundary) and resumed in a fresh model and trainer reproduces the uninterrupted run
// bit for bit: weights, every step's loss and the epoch metrics, with dropout, a decaying
// schedule, ReduceLROnPlateau and EarlyStopping(restore_best_weights) in play.
#include <QtTest>

#include <random>

#include "graph_builder.h"
#include "synthetic_data.h"
#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"

namespace {

lf::Graph dropout_mlp() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{4}}});
    auto d1 = b.add("Dense", {{"units", std::int64_t(16)}, {"activation", std::string("relu")}}, {in});
    auto dr = b.add("Dropout", {{"rate", 0.3}}, {d1});
    auto d2 = b.add("Dense", {{"units", std::int64_t(3)}}, {dr});
    b.add("Softmax", {}, {d2});
    return b.graph;
}


lf::TrainingConfig config() {
    lf::TrainingConfig c;  // Adam
    c.epochs = 6;
    c.batch_size = 8;      // 45 samples: 5 full batches and a remainder of 5
    c.seed = 11;
    c.schedule = {"exponential_decay", {{"decay_steps", std::int64_t(10)}, {"decay_rate", 0.9}}};
    c.callbacks = {{"ReduceLROnPlateau", {{"monitor", std::string("val_loss")}, {"patience", std::int64_t(1)},
                                          {"factor", 0.5}, {"min_delta", 1e-3}}},
                   {"EarlyStopping", {{"monitor", std::string("val_accuracy")}, {"patience", std::int64_t(10)},
                                      {"restore_best_weights", true}}}};
    return c;
}

// Every step's and epoch's metrics, in order.
struct Curve : lf::TrainObserver {
    std::vector<std::pair<std::int64_t, lf::Metrics>> points;
    bool wants_every_step() const override { return true; }
    void on_event(const lf::TrainEvent& e) override {
        if (e.kind == lf::EventKind::Step || e.kind == lf::EventKind::EpochEnd) points.emplace_back(e.step, e.metrics);
    }
};

// What a store keeps: the weights, the optimizer's slot_buffers and the state, per checkpoint.
struct Saved {
    lf::TrainState state;
    std::vector<float> weights;
    std::vector<std::vector<float>> slot_buffers;
};
struct MemorySink : lf::CheckpointSink {
    lf::Model* model = nullptr;
    lf::Trainer* trainer = nullptr;
    std::vector<Saved> saved;
    void save(const lf::TrainState& s, const lf::Metrics&) override {
        Saved c{s, model->weights(), {}};
        for (auto& [name, buf] : trainer->optimizer().state()) c.slot_buffers.push_back(*buf);
        saved.push_back(std::move(c));
    }
};

}  // namespace

class TestResume : public QObject {
    Q_OBJECT
    const lf::TensorDataset train_ = synthetic(45, 1), val_ = synthetic(20, 2);

private slots:
    void resumed_run_matches_the_uninterrupted_one() {
        // The uninterrupted run, checkpointing every 4 steps and every epoch.
        lf::Model model(dropout_mlp());
        model.init_weights(3);
        lf::Trainer trainer(model, config());
        Curve straight;
        MemorySink sink;
        sink.model = &model;
        sink.trainer = &trainer;
        trainer.add_observer(&straight);
        trainer.set_checkpointing({.every_steps = 4, .every_epochs = 1}, &sink);
        const lf::FitResult full = trainer.fit(train_, &val_);
        QCOMPARE(full.status, lf::RunStatus::Finished);
        QVERIFY(sink.saved.size() > 10);

        bool mid = false, boundary = false;
        for (const Saved& c : sink.saved) {
            if (c.state.epoch > config().epochs) continue;  // the final one: nothing left to run
            (c.state.step_in_epoch ? mid : boundary) = true;
            lf::Model m2(dropout_mlp());
            m2.init_weights(99);  // anything: the checkpoint overwrites it
            m2.weights() = c.weights;
            lf::Trainer t2(m2, config());
            auto slot_buffers = t2.optimizer().state();
            for (std::size_t i = 0; i < slot_buffers.size(); ++i) *slot_buffers[i].second = c.slot_buffers[i];
            Curve resumed;
            t2.add_observer(&resumed);
            const lf::FitResult r = t2.fit(train_, &val_, &c.state);
            QCOMPARE(r.status, lf::RunStatus::Finished);
            QVERIFY2(m2.weights() == model.weights(),
                     qPrintable(QString("weights differ after resuming at step %1").arg(c.state.iterations)));
            // The resumed curve is the tail of the straight one.
            std::size_t k = 0;  // the points the interrupted run had already produced
            while (k < straight.points.size() && straight.points[k].first <= c.state.iterations) ++k;
            std::vector<std::pair<std::int64_t, lf::Metrics>> tail(straight.points.begin() + std::ptrdiff_t(k),
                                                                   straight.points.end());
            QCOMPARE(resumed.points.size(), tail.size());
            QVERIFY2(resumed.points == tail, qPrintable(QString("curve differs from step %1").arg(c.state.iterations)));
        }
        QVERIFY(mid && boundary);
    }

    // A stop request saves an end checkpoint where it stopped; resuming from it finishes the run
    // exactly as if it had never stopped.
    void stop_checkpoint_resumes_exactly() {
        lf::Model straight(dropout_mlp());
        straight.init_weights(3);
        lf::Trainer t0(straight, config());
        t0.fit(train_, &val_);

        lf::Model model(dropout_mlp());
        model.init_weights(3);
        lf::Trainer trainer(model, config());
        MemorySink sink;
        sink.model = &model;
        sink.trainer = &trainer;
        struct Stopper : lf::TrainObserver {
            lf::Trainer* t = nullptr;
            void on_event(const lf::TrainEvent& e) override {
                if (e.kind == lf::EventKind::Step && e.step == 9) t->request_stop();
            }
        } stopper;
        stopper.t = &trainer;
        trainer.set_log_every(1);
        trainer.add_observer(&stopper);
        trainer.set_checkpointing({.every_epochs = 0}, &sink);
        QCOMPARE(trainer.fit(train_, &val_).status, lf::RunStatus::Stopped);
        QCOMPARE(sink.saved.size(), std::size_t(1));
        const Saved& c = sink.saved[0];
        QCOMPARE(c.state.iterations, std::int64_t(9));
        QCOMPARE(c.state.epoch, std::int64_t(2));
        QCOMPARE(c.state.step_in_epoch, std::int64_t(3));

        lf::Model m2(dropout_mlp());
        m2.weights() = c.weights;
        lf::Trainer t2(m2, config());
        auto slot_buffers = t2.optimizer().state();
        for (std::size_t i = 0; i < slot_buffers.size(); ++i) *slot_buffers[i].second = c.slot_buffers[i];
        QCOMPARE(t2.fit(train_, &val_, &c.state).status, lf::RunStatus::Finished);
        QVERIFY(m2.weights() == straight.weights());
    }

    void resume_with_other_batch_size_is_refused() {
        lf::Model model(dropout_mlp());
        model.init_weights(3);
        lf::TrainState s;
        s.steps_per_epoch = 2;
        lf::Trainer trainer(model, config());
        bool thrown = false;
        try {
            trainer.fit(train_, &val_, &s);
        } catch (const lf::Error& e) {
            thrown = std::string(e.what()).find("steps per epoch") != std::string::npos;
        }
        QVERIFY(thrown);
    }

    void failing_sink_stops_the_run_cleanly() {
        struct Full : lf::CheckpointSink {
            void save(const lf::TrainState&, const lf::Metrics&) override {
                throw lf::runtime_error("disk full");
            }
        } full;
        lf::Model model(dropout_mlp());
        model.init_weights(3);
        lf::Trainer trainer(model, config());
        trainer.set_checkpointing({.every_steps = 3}, &full);
        const lf::FitResult r = trainer.fit(train_, &val_);
        QCOMPARE(r.status, lf::RunStatus::Failed);
        QCOMPARE(r.steps, std::int64_t(3));
        QVERIFY2(r.message.find("disk full") != std::string::npos, r.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestResume)
#include "test_resume.moc"
#include "run_status_text.h"
