// The precision policy (training.precision) from the settings to the plans: the trainer's,
// Inference's and the estimates' PlanOptions carry it, so a mixed_bfloat16 run computes its
// heavy layers in bfloat16 and still learns like float32; a run records its policy, a resume
// keeps it (exactly) and refuses another. Needs a CPU with bfloat16 instructions, as the build
// machines have (test_precision_refusal covers the others).
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "bf16_cpu.h"
#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/run/session.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"
#include "synthetic_data.h"

using namespace lf;

namespace {

TrainingConfig sgd(Precision precision, std::int64_t epochs = 20) {
    TrainingConfig c;
    c.optimizer = {"SGD", {{"learning_rate", 0.2}}};
    c.epochs = epochs;
    c.batch_size = 20;
    c.precision = precision;
    return c;
}

Project tutorial_mlp(Precision precision) {
    Project p;
    p.name = "mixed";
    p.graph = mlp_builder().graph;
    p.training.precision = precision;
    return p;
}

int steps_in(const PlanProfile& steps, DType type) {
    int n = 0;
    for (const LayerProfile& s : steps) n += s.compute == type;
    return n;
}

struct LastProfile : TrainObserver {
    PlanProfile profile;
    void on_event(const TrainEvent& e) override {
        if (!e.profile.empty()) profile = e.profile;
    }
};

struct Fit {
    FitResult result;
    double initial_loss = 0;
    PlanProfile profile;
    std::vector<float> predictions;
};

// The small MLP fitted on the synthetic set under `precision`, from the same weights.
Fit fit(Precision precision) {
    Model model(mlp_builder({4}, 32, "relu", 3).graph);
    model.init_weights(1);
    const TensorDataset train = synthetic(400), test = synthetic(100, 2);
    Trainer trainer(model, sgd(precision));
    LastProfile last;
    trainer.add_observer(&last);
    Fit f;
    f.initial_loss = trainer.evaluate(train).metrics[0].second;
    f.result = trainer.fit(train, nullptr);
    f.profile = last.profile;
    f.predictions = Inference(model, sgd(precision)).predict(test);
    return f;
}

double final_loss(const Fit& f) { return f.result.history.back().front().second; }

}  // namespace

class TestPrecisionPolicy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    SessionOptions options(const QString& name) {
        SessionOptions o;
        o.project_path = dir_.filePath(name + ".lfproj").toStdString();
        o.log_every = 5;
        return o;
    }

public:
    static void initMain() { lf_test::skip_suite_without_bf16(); }  // test_precision_refusal covers the rest

private Q_SLOTS:

    // `info` and the summary dock: Dense layers in bfloat16, nothing allocated, and the
    // activations stored in bfloat16 make the estimate smaller.
    void describe_and_estimate_follow_the_policy() {
        const Project f32 = tutorial_mlp(Precision::Float32), mixed = tutorial_mlp(Precision::MixedBFloat16);
        const PlanProfile a = describe_training_plan(f32), b = describe_training_plan(mixed);
        QCOMPARE(steps_in(a, DType::BFloat16), 0);
        QVERIFY(steps_in(b, DType::BFloat16) > 0);
        QCOMPARE(a.size(), b.size());
        bool dense_in_bf16 = false;
        for (const LayerProfile& s : b) dense_in_bf16 |= s.node == "dense_2" && s.compute == DType::BFloat16;
        QVERIFY(dense_in_bf16);
        const MemoryBreakdown ma = estimate_training_memory(f32), mb = estimate_training_memory(mixed);
        QVERIFY2(mb.activations < ma.activations, qPrintable(QString("%1 vs %2").arg(mb.activations).arg(ma.activations)));
        QCOMPARE(mb.weights, ma.weights);  // master weights stay float32
        QCOMPARE(mb.optimizer_state, ma.optimizer_state);
    }

    // The trainer's plans compute in bfloat16 and the run lowers the loss as float32 does;
    // Inference's predictions are bfloat16 ones (close to float32's, not the same).
    void mixed_training_learns_like_float32() {
        const Fit a = fit(Precision::Float32), b = fit(Precision::MixedBFloat16);
        QCOMPARE(b.result.status, RunStatus::Finished);
        QCOMPARE(steps_in(a.profile, DType::BFloat16), 0);
        QVERIFY(steps_in(b.profile, DType::BFloat16) > 0);
        QVERIFY2(final_loss(a) < 0.7 * a.initial_loss, qPrintable(QString::number(final_loss(a))));
        QVERIFY2(final_loss(b) < 0.7 * b.initial_loss, qPrintable(QString::number(final_loss(b))));
        LF_COMPARE_NEAR(final_loss(b), final_loss(a), 0.1);
        QCOMPARE(a.predictions.size(), b.predictions.size());
        double largest = 0;
        for (std::size_t i = 0; i < a.predictions.size(); ++i)
            largest = std::max(largest, double(std::abs(a.predictions[i] - b.predictions[i])));
        QVERIFY2(largest > 0 && largest < 0.1, qPrintable(QString::number(largest)));
    }

    // A run records its policy; a resume keeps it, even when the project says otherwise, and
    // ends with the weights of the uninterrupted run.
    void resume_keeps_the_recorded_policy_exactly() {
        Project p = tutorial_mlp(Precision::Float32);
        p.dataset.limit_train = 200;
        p.dataset.limit_test = 50;
        p.training.batch_size = 20;
        p.training.epochs = 2;
        SessionOptions straight = options("straight");
        straight.precision = Precision::MixedBFloat16;  // --precision mixed_bfloat16
        const SessionResult whole = TrainingSession(p, straight).run();
        RunStore store(RunStore::path_for_project(straight.project_path), false);
        QCOMPARE(run_precision(store.run(whole.run)), Precision::MixedBFloat16);

        SessionOptions first = options("resumed");
        first.precision = Precision::MixedBFloat16;
        Project one = p;
        one.training.epochs = 1;
        const SessionResult half = TrainingSession(one, first).run();
        SessionOptions again = options("resumed");
        again.resume = "latest";
        struct Lines : SessionListener {
            std::string text;
            void on_line(const std::string& t) override { text += t + "\n"; }
        } lines;
        const SessionResult rest = TrainingSession(p, again, &lines).run();  // the project says float32
        QCOMPARE(rest.run, half.run);
        QVERIFY2(lines.text.find("resuming in mixed_bfloat16") != std::string::npos, lines.text.c_str());
        QVERIFY(rest.weights == whole.weights);  // bit-identical, as for float32
        RunStore resumed(RunStore::path_for_project(again.project_path), false);
        QCOMPARE(run_precision(resumed.run(rest.run)), Precision::MixedBFloat16);

        again.precision = Precision::Float32;  // --precision float32 --resume: refused, nothing run
        LF_EXPECT_INPUT_ERROR(TrainingSession(p, again).run(), "recorded with precision mixed_bfloat16",
                              "keeps its precision");
    }

    // Runs recorded before the policy existed read as float32; a float32 run records it too.
    void store_reads_the_policy_from_the_settings() {
        RunInfo r;
        r.settings = R"({"training": {"batch_size": 50}, "dataset": {}})";
        QCOMPARE(run_precision(r), Precision::Float32);
        r.settings = R"({"training": {"precision": "mixed_bfloat16"}})";
        QCOMPARE(run_precision(r), Precision::MixedBFloat16);
        r.settings = R"({"training": {"precision": "mixed_float16"}})";
        QCOMPARE(run_precision(r), Precision::MixedFloat16);
        r.settings = R"({"training": {"precision": "mixed_float8"}})";
        LF_EXPECT_RUNTIME_ERROR(run_precision(r), "unknown precision \"mixed_float8\"");

        Project p = tutorial_mlp(Precision::Float32);
        p.dataset.limit_train = 40;
        p.dataset.limit_test = 20;
        p.training.batch_size = 20;
        p.training.epochs = 1;
        const SessionResult f32 = TrainingSession(p, options("float32")).run();
        RunStore store(RunStore::path_for_project(options("float32").project_path), false);
        const RunInfo info = store.run(f32.run);
        QVERIFY2(info.settings.find("\"precision\":\"float32\"") != std::string::npos, info.settings.c_str());
        QCOMPARE(run_precision(info), Precision::Float32);
        SessionOptions resume = options("float32");
        resume.resume = "latest";
        resume.precision = Precision::MixedBFloat16;
        LF_EXPECT_INPUT_ERROR(TrainingSession(p, resume).run(), "recorded with precision float32");
    }
};

QTEST_MAIN(TestPrecisionPolicy)
#include "test_precision_policy.moc"
