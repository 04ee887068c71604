// The CUDA backend against the CPU backend on a GPU (ctest -L gpu): device listing and memory,
// weights through device memory, Dense (cuBLAS), the activations and softmax (cuDNN) forward
// and backward, fan-out gradient sums, a plugin layer refused by name, an update through the host for a
// rule without a device form, and the arena's limit with its batch suggestion. The other
// layers are test_cuda_layers, the optimizers test_cuda_optimizers, training runs
// test_cuda_templates. cuBLAS and cuDNN run with TF32 off, so float32 tolerances hold. Without
// a CUDA device the executable prints the registry's reason and exits 77, which CTest reports
// as skipped (SKIP_RETURN_CODE), never as passed.
#include "cuda_compare.h"
#include "graph_builder.h"
#include "layerforge/backend/weight_update.h"
#include "layerforge/project/project.h"
#include "lf_test_util.h"
#include "plugin_layer_fixture.h"

namespace {

using gpu_test::kGpu;
using gpu_test::random_vector;
using gpu_test::run_pass;
using gpu_test::templates_dir;

void compare_backends(const lf::Graph& graph, std::int64_t batch, lf::OutputGrad of = lf::OutputGrad::Output) {
    gpu_test::compare_backends(graph, {.batch = batch, .of = of});
}

// w -= lr * g: a rule without a device form (no take_step), which the CUDA device model runs
// on host copies of the weights.
struct Sgd final : lf::WeightUpdate {
    void step(float* w, const float* g, std::size_t n, double lr) override {
        for (std::size_t i = 0; i < n; ++i) w[i] -= float(lr) * g[i];
    }
};

}  // namespace

class TestCudaCrossBackend : public QObject {
    Q_OBJECT
private slots:
    void the_gpu_is_listed_with_its_properties() {
        const lf::DeviceList list = lf::list_devices();
        QVERIFY(list.gpu_unavailable.empty());
        const auto& d = list.devices.at(1);
        QCOMPARE(d.id, kGpu);
        QCOMPARE(d.kind, std::string("cuda"));
        QVERIFY(!d.name.empty());
        QVERIFY(d.total_memory > (1ull << 30));
        QVERIFY2(std::stod(d.compute_capability) >= 8.0, d.compute_capability.c_str());  // sm_80 is the oldest built
        QVERIFY(!d.driver.empty());
        const lf::DeviceMemory m = lf::device_memory(kGpu);
        QVERIFY(m.total > 0 && m.used <= m.total);
        std::printf("%s: %s, %.1f GiB, cc %s, driver %s, %d%% busy\n", d.id.c_str(), d.name.c_str(),
                    double(d.total_memory) / double(1ull << 30), d.compute_capability.c_str(), d.driver.c_str(),
                    m.utilization);
    }

    void weights_go_to_the_device_and_back() {
        lf::Model model(mlp_builder({20}, 32).graph);
        model.init_weights(1);
        const std::uint64_t before = lf::device_memory(kGpu).process;
        auto dm = lf::load_model(model, kGpu);
        QVERIFY(lf::device_memory(kGpu).process >= before + 2 * model.weights().size() * sizeof(float));
        const std::vector<float> original = model.weights();
        for (float& w : model.weights()) w = 0;
        dm->pull_weights();
        QVERIFY(model.weights() == original);
        model.weights()[5] = 42.f;
        dm->push_weights();
        model.weights()[5] = 0.f;
        dm->pull_weights();
        QCOMPARE(model.weights()[5], 42.f);
    }

    void dense_and_activations_match_the_cpu_data() {
        QTest::addColumn<QString>("activation");
        for (const char* a : {"relu", "sigmoid", "tanh", "linear", "softmax"}) QTest::newRow(a) << a;
    }
    void dense_and_activations_match_the_cpu() {
        QFETCH(QString, activation);
        for (std::int64_t batch : {1, 7, 64}) {
            GraphBuilder b;
            auto in = b.add("Input", {{"shape", lf::IntList{37}}});
            auto d1 = b.add("Dense", {{"units", std::int64_t(53)}, {"activation", activation.toStdString()}}, {in});
            b.add("Dense", {{"units", std::int64_t(10)}, {"activation", std::string("tanh")}}, {d1});
            compare_backends(b.graph, batch);
        }
    }

    void the_tutorial_mlp_matches_with_and_without_the_fused_softmax() {
        const lf::Graph g = lf::load_project(templates_dir() + "fashion_mlp.lfproj").graph;
        compare_backends(g, 50, lf::OutputGrad::Output);
        compare_backends(g, 50, lf::OutputGrad::Logits);
    }

    // d feeds two layers: its gradient is the sum of theirs (the plan's fan-out slots).
    void activation_layers_add_and_fan_out_match() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{24}}});
        auto d = b.add("Dense", {{"units", std::int64_t(16)}}, {in});
        auto r = b.add("ReLU", {}, {d});
        auto s = b.add("Activation", {{"activation", std::string("sigmoid")}}, {d});
        auto a = b.add("Dense", {{"units", std::int64_t(8)}}, {r});
        auto c = b.add("Dense", {{"units", std::int64_t(8)}, {"activation", std::string("tanh")}}, {s});
        b.add("Softmax", {}, {b.add("Add", {}, {a, c})});
        compare_backends(b.graph, 9);
        compare_backends(b.graph, 9, lf::OutputGrad::Logits);
    }

    // A plugin layer has a CPU kernel only.
    void a_layer_without_a_cuda_kernel_is_refused_by_name() {
        test_plugins::register_identity_layer("TestCpuOnlyLayer");
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{8, 8, 1}}});
        b.add("TestCpuOnlyLayer", {}, {in});
        lf::Model model(b.graph);
        auto dm = lf::load_model(model, kGpu);
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, dm->make_plan({.device = kGpu, .batch = 2}), "testcpuonlylayer_1",
                                "TestCpuOnlyLayer", "no CUDA kernel");
    }

    void an_update_through_the_device_matches_the_cpu() {
        lf::Model cpu(mlp_builder({20}, 32).graph), gpu(mlp_builder({20}, 32).graph);
        cpu.init_weights(4);
        gpu.init_weights(4);
        run_pass(cpu, "cpu", {.batch = 8});
        auto dm = lf::load_model(gpu, kGpu);
        auto plan = dm->make_plan({.device = kGpu, .batch = 8, .mode = lf::PlanMode::Train});
        const auto x = random_vector(std::size_t(8 * plan->input_width()), 11);
        const auto dy = random_vector(std::size_t(8 * plan->output_width()), 12);
        plan->set_input(x.data());
        plan->forward();
        plan->set_output_grad(dy.data());
        plan->backward();
        Sgd sgd;
        dm->update(sgd, 0.1);
        dm->pull_weights();
        sgd.step(cpu.weights().data(), cpu.grads().data(), cpu.trainable_size(), 0.1);
        LF_COMPARE_VECTORS(gpu.weights(), cpu.weights(), 1e-5);
    }

    void a_memory_limit_refuses_the_plan_with_a_batch_that_fits() {
        lf::Model model(mlp_builder({28, 28, 1}, 512).graph);
        model.init_weights(1);
        auto dm = lf::load_model(model, kGpu);
        lf::set_memory_limit(kGpu, std::uint64_t(lf::device_memory(kGpu).process) + (8u << 20));
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Runtime,
                                dm->make_plan({.device = kGpu, .batch = 4096, .mode = lf::PlanMode::Train}),
                                "out of GPU memory on cuda:0", "within the memory limit", "fits");
        lf::set_memory_limit(kGpu, 0);
        QVERIFY(dm->make_plan({.device = kGpu, .batch = 4096, .mode = lf::PlanMode::Train}));
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaCrossBackend>(argc, argv); }
#include "test_cuda_cross_backend.moc"
