// The CUDA plan's host side, without a GPU: which steps of a schedule get a CUDA op and how the
// others are refused (by node and layer type, before any device memory is taken), and what the
// plan would hold (the schedule's buffers plus the ops' workspaces), in the estimate and per step.
#include <QtTest>

#include "backend/cuda/cuda_ops.h"
#include "backend/cuda/cuda_plan.h"
#include "graph_builder.h"
#include "layerforge/graph/model.h"
#include "layerforge/graph/schedule.h"
#include "layerforge/project/project.h"

namespace {

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

lf::Schedule schedule_of(const lf::Model& m, std::int64_t batch, bool training = true) {
    return lf::make_schedule(m, {.batch = batch, .training = training, .fuse = false}, lf::cuda_backward_reads_output);
}

// The first refusal over the schedule, "" when every step has a CUDA op.
std::string first_refusal(const lf::Model& m) {
    for (const lf::ScheduledStep& s : schedule_of(m, 4).steps)
        if (std::string why = lf::cuda_op_unsupported(s); !why.empty()) return why;
    return "";
}

lf::Graph dense_graph(const std::string& activation, std::int64_t units = 10) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{12}}});
    b.add("Dense", {{"units", units}, {"activation", activation}}, {in});
    return b.graph;
}

}  // namespace

class TestCudaLowering : public QObject {
    Q_OBJECT
private slots:
    void the_tutorial_mlp_lowers_completely() {
        const lf::Model mlp(lf::load_project(templates_dir() + "fashion_mlp.lfproj").graph);
        QCOMPARE(first_refusal(mlp), std::string());
    }

    void layers_without_an_op_are_refused_by_name() {
        const lf::Model cnn(lf::load_project(templates_dir() + "fashion_cnn.lfproj").graph);
        const std::string why = first_refusal(cnn);
        QCOMPARE(why, std::string("layer 'conv1' (Conv2D) has no CUDA kernel yet; train this model on the CPU"));

        QCOMPARE(first_refusal(lf::Model(dense_graph("gelu"))),
                 std::string("layer 'dense_1' (Dense): activation 'gelu' has no CUDA kernel yet"));
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{12}}});
        b.add("ReLU", {{"negative_slope", 0.1}}, {in});
        QCOMPARE(first_refusal(lf::Model(b.graph)),
                 std::string("layer 'relu_1' (ReLU): only max(x, 0) has a CUDA kernel yet (no slope, threshold or cap)"));
    }

    void what_each_op_reads_back() {
        const lf::Model relu(dense_graph("relu")), linear(dense_graph("linear"));
        const lf::Schedule a = schedule_of(relu, 4), b = schedule_of(linear, 4);
        QVERIFY(lf::cuda_backward_reads_output(a.step("dense_1"), a));   // relu' from its output
        QVERIFY(!lf::cuda_backward_reads_output(b.step("dense_1"), b));
        QVERIFY(!lf::cuda_backward_reads_output(a.step("input_0"), a));  // runs nothing
    }

    // A Dense softmax keeps its logits (and, training, their gradient) as a workspace.
    void the_estimate_is_the_schedule_plus_the_workspaces() {
        const lf::Model m(dense_graph("softmax", 10));
        for (bool training : {true, false}) {
            const lf::PlanOptions o{.device = "cuda:0", .batch = 50,
                                    .mode = training ? lf::PlanMode::Train : lf::PlanMode::Infer};
            const lf::Schedule s = schedule_of(m, 50, training);
            const lf::MemoryBreakdown e = lf::CudaPlan::estimate(m, o);
            QCOMPARE(e.activations, s.bytes(lf::BufferKind::Activation));
            QCOMPARE(e.gradients, s.bytes(lf::BufferKind::Gradient));
            QCOMPARE(e.workspaces, std::size_t((training ? 2 : 1) * 50 * 10 * sizeof(float)));
            std::size_t steps = 0;
            for (const lf::LayerProfile& p : lf::CudaPlan::describe(m, o)) steps += p.bytes;
            QCOMPARE(steps, e.activations + e.gradients + e.workspaces);  // every byte charged once
        }
        const lf::Model mlp(lf::load_project(templates_dir() + "fashion_mlp.lfproj").graph);
        QCOMPARE(lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 50}).workspaces, std::size_t(0));
        QVERIFY(lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 100}).total() >
                lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 50}).total());
    }
};

QTEST_GUILESS_MAIN(TestCudaLowering)
#include "test_cuda_lowering.moc"
