// mixed_float16, Keras' float16 policy: parsed and named like the others, planned with every
// buffer in float16 but the output layer's, counted at 2 bytes an activation, and refused by
// the CPU backend (which has no float16 kernels) with its reason, before any plan runs or a run
// is recorded; a count-only plan still estimates it.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "graph_builder.h"
#include "layerforge/backend/backend.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/schedule.h"
#include "layerforge/project/project.h"
#include "layerforge/run/session.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

using namespace lf;

namespace {

constexpr const char* kReason = "no float16 kernels";

TrainingConfig float16() {
    TrainingConfig c;
    c.precision = Precision::MixedFloat16;
    return c;
}

}  // namespace

class TestFloat16Policy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void names_round_trip() {
        QCOMPARE(std::string(to_string(Precision::MixedFloat16)), std::string("mixed_float16"));
        QCOMPARE(parse_precision("mixed_float16"), std::optional(Precision::MixedFloat16));
        QCOMPARE(precision_choices(), std::string("float32 or mixed_bfloat16 or mixed_float16"));
        QCOMPARE(std::string(to_string(DType::Float16)), std::string("float16"));
        QCOMPARE(dtype_size(DType::Float16), std::size_t(2));
        QCOMPARE(compute_dtype(Precision::MixedFloat16), DType::Float16);
        QCOMPARE(compute_dtype(Precision::MixedBFloat16), DType::BFloat16);
        QCOMPARE(compute_dtype(Precision::Float32), DType::Float32);
    }

    void the_project_file_keeps_it() {
        QTemporaryDir dir;
        Project p;
        p.graph = mlp_builder().graph;
        p.training = float16();
        const std::string path = dir.filePath("p.lfproj").toStdString();
        save_project(p, path);
        QCOMPARE(load_project(path).training.precision, Precision::MixedFloat16);
    }

    void every_buffer_but_the_output_is_float16() {
        Model model(mlp_builder({4}, 8, "relu", 3).graph);
        ScheduleOptions o{.batch = 5, .training = true, .precision = Precision::MixedFloat16};
        const Schedule s = make_schedule(model, o, [](const ScheduledStep&, const Schedule&) { return false; });
        int half = 0;
        for (std::size_t i = 0; i < s.buffers.size(); ++i) {
            const bool output = int(i) == s.output || int(i) == s.output_grad;
            QCOMPARE(s.buffers[i].dtype, output ? DType::Float32 : DType::Float16);
            half += !output;
        }
        QVERIFY(half > 0);
        QCOMPARE(s.buffers[std::size_t(s.inputs[0])].bytes(), std::size_t(5 * 4 * 2));
    }

    void the_cpu_refuses_it_with_the_reason() {
        const std::string reason = precision_unsupported(Precision::MixedFloat16, "cpu");
        QVERIFY2(reason.find(kReason) != std::string::npos && reason.find("mixed_bfloat16") != std::string::npos,
                 reason.c_str());
        LF_EXPECT_INPUT_ERROR(require_precision(Precision::MixedFloat16, "cpu"), "mixed_float16", kReason, "use float32");
        Model model(mlp_builder({4}, 8, "relu", 3).graph);
        model.init_weights(1);
        LF_EXPECT_INPUT_ERROR(Trainer refused(model, float16()), kReason);
        LF_EXPECT_INPUT_ERROR(Inference refused(model, float16()), kReason);
        // A plan made past the policy check refuses too: its float32 ops would misread 2-byte buffers.
        auto device = backend_for("cpu").load(model, "cpu");
        const PlanOptions plan{.device = "cpu", .batch = 2, .mode = PlanMode::Train, .precision = Precision::MixedFloat16};
        LF_EXPECT_INPUT_ERROR(device->make_plan(plan), kReason);
    }

    void the_estimate_counts_2_bytes_an_activation() {
        Model model(mlp_builder({64}, 32, "relu", 3).graph);
        PlanOptions plan{.device = "cpu", .batch = 16, .mode = PlanMode::Train};
        const MemoryBreakdown f32 = backend_for("cpu").estimate(model, plan);
        plan.precision = Precision::MixedFloat16;
        const MemoryBreakdown f16 = backend_for("cpu").estimate(model, plan);
        QVERIFY(f16.activations < f32.activations);
        QCOMPARE(f16.weights, f32.weights);
    }

    void a_session_refuses_before_it_records_a_run() {
        QTemporaryDir dir;
        Project p;
        p.graph = mlp_builder().graph;
        p.training = float16();
        SessionOptions o;
        o.project_path = dir.filePath("p.lfproj").toStdString();
        LF_EXPECT_INPUT_ERROR(TrainingSession(p, o).run(), kReason);
        QVERIFY(!std::filesystem::exists(RunStore::path_for_project(o.project_path)));
    }
};

QTEST_MAIN(TestFloat16Policy)
#include "test_float16_policy.moc"
