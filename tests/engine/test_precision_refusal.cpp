// On a CPU without bfloat16 instructions, mixed_bfloat16 is refused with the backend's reason,
// never emulated: by the trainer, by Inference, by the memory check before a run and by the
// session before it records anything. CTest runs this with DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI
// (tests/CMakeLists.txt), which caps oneDNN's effective ISA below avx512_core_bf16.
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
        QVERIFY2(lf_test::bf16_capped(), "run under CTest, which sets DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI");
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
};

QTEST_MAIN(TestPrecisionRefusal)
#include "test_precision_refusal.moc"
