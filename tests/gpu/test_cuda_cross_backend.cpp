// The CUDA backend against the CPU backend on a GPU (ctest -L gpu): device listing and memory,
// weights through device memory, Dense (cuBLAS), the activations and softmax (cuDNN) forward
// and backward, fan-out gradient sums, the arena's limit with its batch suggestion, and a
// short training run. cuBLAS runs with TF32 off, so float32 tolerances hold. Without a CUDA
// device the executable prints the registry's reason and exits 77, which CTest reports as
// skipped (SKIP_RETURN_CODE), never as passed.
#include <QtTest>

#include <cstdio>
#include <random>

#include "graph_builder.h"
#include "layerforge/backend/weight_update.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

namespace {

const std::string kGpu = "cuda:0";

std::vector<float> random_vector(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
}

// Largest |a - b| relative to max(1, |b|).
double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - b[i]) / std::max(1.0, std::abs(double(b[i]))));
    return worst;
}

#define LF_COMPARE_VECTORS(a, b, tol)                                                                            \
    do {                                                                                                         \
        QCOMPARE((a).size(), (b).size());                                                                        \
        const double lf_d = max_difference(a, b);                                                                \
        QVERIFY2(lf_d <= (tol), qPrintable(QString("%1 vs %2: max difference %3").arg(#a, #b).arg(lf_d)));       \
    } while (0)

// One forward and backward on `device`: outputs, logits (softmax outputs), input gradients and
// weight gradients, from the same weights, input and output gradient.
struct Pass {
    std::vector<float> out, logits, in_grad, w_grad;
};

Pass run_pass(lf::Model& model, const std::string& device, std::int64_t batch, lf::OutputGrad of) {
    auto dm = lf::load_model(model, device);
    auto plan = dm->make_plan({.device = device, .batch = batch, .mode = lf::PlanMode::Train, .input_grads = true});
    const auto x = random_vector(std::size_t(batch * plan->input_width()), 11);
    const auto dy = random_vector(std::size_t(batch * plan->output_width()), 12);
    Pass p;
    plan->set_input(x.data());
    plan->forward();
    p.out.resize(dy.size());
    plan->read_output(p.out.data());
    if (plan->output_is_softmax()) {
        p.logits.resize(dy.size());
        plan->read_logits(p.logits.data());
    }
    plan->set_output_grad(dy.data(), of);
    plan->backward();
    p.in_grad.resize(x.size());
    plan->read_input_grad(p.in_grad.data());
    dm->pull_grads();
    p.w_grad = model.grads();
    return p;
}

void compare_backends(lf::Graph graph, std::int64_t batch, lf::OutputGrad of = lf::OutputGrad::Output) {
    lf::Model model(std::move(graph));
    model.init_weights(3);
    const Pass cpu = run_pass(model, "cpu", batch, of);
    const Pass gpu = run_pass(model, kGpu, batch, of);
    LF_COMPARE_VECTORS(gpu.out, cpu.out, 1e-5);
    LF_COMPARE_VECTORS(gpu.logits, cpu.logits, 1e-5);
    LF_COMPARE_VECTORS(gpu.in_grad, cpu.in_grad, 1e-4);
    LF_COMPARE_VECTORS(gpu.w_grad, cpu.w_grad, 1e-4);
}

// w -= lr * g: an update the CUDA device model runs through the host.
struct Sgd final : lf::WeightUpdate {
    void step(float* w, const float* g, std::size_t n, double lr) override {
        for (std::size_t i = 0; i < n; ++i) w[i] -= float(lr) * g[i];
    }
};

double metric(const lf::Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    return std::nan("");
}

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

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

    void a_layer_without_a_cuda_kernel_is_refused_by_name() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{8, 8, 1}}});
        b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}}}, {in});
        lf::Model model(b.graph);
        auto dm = lf::load_model(model, kGpu);
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, dm->make_plan({.device = kGpu, .batch = 2}), "conv2d_1",
                                "Conv2D", "no CUDA kernel");
    }

    void an_update_through_the_device_matches_the_cpu() {
        lf::Model cpu(mlp_builder({20}, 32).graph), gpu(mlp_builder({20}, 32).graph);
        cpu.init_weights(4);
        gpu.init_weights(4);
        const Pass pc = run_pass(cpu, "cpu", 8, lf::OutputGrad::Output);
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

    // The trainer end to end on random images: the same curve as the CPU within float32 noise.
    void the_tutorial_mlp_trains_like_on_the_cpu() {
        lf::Project p = lf::load_project(templates_dir() + "fashion_mlp.lfproj");
        p.training.epochs = 2;
        p.training.batch_size = 25;
        lf::TensorDataset d;
        d.sample_shape = lf::Shape{28, 28, 1};
        for (int c = 0; c < 10; ++c) d.class_names.push_back(std::to_string(c));
        d.images = random_vector(100 * 784, 5);
        for (float& v : d.images) v = (v + 1) / 2;
        for (int i = 0; i < 100; ++i) d.labels.push_back(i % 10);
        std::vector<std::vector<lf::Metrics>> histories;
        for (const std::string device : {"cpu", kGpu.c_str()}) {
            lf::Model model(p.graph);
            model.init_weights(7);
            lf::Trainer trainer(model, p.training, device);
            histories.push_back(trainer.fit(d, nullptr).history);
        }
        QCOMPARE(histories[1].size(), histories[0].size());
        for (std::size_t e = 0; e < histories[0].size(); ++e)
            LF_COMPARE_NEAR(metric(histories[1][e], "loss"), metric(histories[0][e], "loss"), 1e-3);
    }
};

int main(int argc, char** argv) {
    const lf::DeviceList devices = lf::list_devices();
    bool gpu = false;
    for (const auto& d : devices.devices) gpu = gpu || d.id == kGpu;
    if (!gpu) {
        std::printf("SKIPPED: no CUDA device: %s\n", devices.gpu_unavailable.c_str());
        return 77;
    }
    TestCudaCrossBackend t;
    return QTest::qExec(&t, argc, argv);
}
#include "test_cuda_cross_backend.moc"
