// On a CPU without bfloat16 instructions, mixed_bfloat16 is refused with the backend's reason,
// never emulated: by the trainer, by Inference, by the memory check before a run and by the
// session before it records anything. CTest runs this with DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI
// (tests/CMakeLists.txt), which caps oneDNN's effective ISA below avx512_core_bf16, and again
// with AVX2, below any bfloat16 kernel.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "bf16_cpu.h"
#include "graph_builder.h"
#include "layerforge/devices/devices.h"
#include "layerforge/run/session.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

using namespace lf;

namespace {

constexpr const char* kReason = "no bfloat16 instructions";

TrainingConfig mixed() {
    TrainingConfig c;
    c.precision = Precision::MixedBFloat16;
    return c;
}

}  // namespace

class TestPrecisionRefusal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(lf_test::bf16_capped(), "run under CTest, which sets DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI or AVX2");
    }

    void the_backend_gives_the_reason() {
        const std::string reason = precision_unsupported(Precision::MixedBFloat16, "cpu");
        QVERIFY2(lf_test::names_the_missing_bf16(reason), reason.c_str());
        QCOMPARE(precision_unsupported(Precision::Float32, "cpu"), std::string());
        LF_EXPECT_INPUT_ERROR(require_precision(Precision::MixedBFloat16, "cpu"), "mixed_bfloat16", kReason,
                              "use float32");
        require_precision(Precision::Float32, "cpu");
    }

    void trainer_and_inference_refuse_before_any_plan() {
        Model model(mlp_builder({4}, 8, "relu", 3).graph);
        model.init_weights(1);
        LF_EXPECT_INPUT_ERROR(Trainer refused(model, mixed()), kReason);
        LF_EXPECT_INPUT_ERROR(Inference refused(model, mixed()), kReason);
        Trainer ok(model, TrainingConfig{});  // float32 runs as before
        Inference ok_too(model, TrainingConfig{});
    }

    void a_session_refuses_before_it_records_a_run() {
        QTemporaryDir dir;
        Project p;
        p.graph = mlp_builder().graph;
        p.training = mixed();
        LF_EXPECT_INPUT_ERROR(require_training_fits(p, "cpu"), kReason);
        SessionOptions o;
        o.project_path = dir.filePath("p.lfproj").toStdString();
        LF_EXPECT_INPUT_ERROR(TrainingSession(p, o).run(), kReason);
        p.training.precision = Precision::Float32;
        o.precision = Precision::MixedBFloat16;  // --precision on a float32 project: the same
        LF_EXPECT_INPUT_ERROR(TrainingSession(p, o).run(), kReason);
        QVERIFY(!std::filesystem::exists(RunStore::path_for_project(o.project_path)));
    }

    // `info` and the Train page still show what the policy makes of the model: each layer's
    // compute type and the estimate at 2 bytes an activation. Registered again capped at AVX2,
    // where oneDNN has no bfloat16 kernel to size, not even an emulated one.
    void the_estimate_still_describes_the_policy() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{12, 12, 3}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(16)}, {"kernel_size", std::int64_t(3)},
                                  {"padding", std::string("same")}, {"activation", std::string("relu")}}, {in});
        auto n = b.add("BatchNormalization", {}, {c});
        auto m = b.add("MaxPool2D", {}, {n});
        auto f = b.add("Flatten", {}, {m});
        auto d = b.add("Dense", {{"units", std::int64_t(10)}}, {f});
        b.add("Softmax", {}, {d});
        Project p;
        p.graph = b.graph;
        p.training.batch_size = 8;
        const MemoryBreakdown f32 = estimate_training_memory(p);
        const PlanProfile f32_steps = describe_training_plan(p);
        p.training.precision = Precision::MixedBFloat16;
        const MemoryBreakdown bf16 = estimate_training_memory(p);
        const PlanProfile steps = describe_training_plan(p);
        QCOMPARE(bf16.weights, f32.weights);  // float32 masters; the output layer's stay float32
        QVERIFY2(bf16.activations * 100 <= f32.activations * 51 && bf16.activations > 0,
                 qPrintable(QString("%1 vs %2 bytes").arg(bf16.activations).arg(f32.activations)));
        QCOMPARE(steps.size(), f32_steps.size());
        for (const LayerProfile& s : f32_steps) QCOMPARE(s.compute, DType::Float32);
        for (const LayerProfile& s : steps)
            QVERIFY2(s.compute == (s.node.rfind("softmax", 0) == 0 ? DType::Float32 : DType::BFloat16), s.node.c_str());
    }
};

QTEST_MAIN(TestPrecisionRefusal)
#include "test_precision_refusal.moc"
