// Data-parallel training's GPU side on cuda:0 (ctest -L gpu): the CUDA module's NCCL entries in
// a clique of one rank (the one GPU a device check has; two ranks cannot share a GPU in NCCL),
// through the device model's gradient exchange, and a data-parallel fit of one rank against a
// plain fit, step for step. tests/engine/test_cuda_gradient_exchange checks two ranks' glue
// without a GPU, tests/cli/test_cli_distributed two CPU processes under mpirun.
#include "cuda_compare.h"
#include "layerforge/backend/backend.h"
#include "layerforge/core/communicator.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"

namespace {

// One process as the whole job: every sum over one rank is the array itself.
class WorldOfOne final : public lf::Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string host(int) const override { return "here"; }
    int local_rank() const override { return 0; }
    void start_sum(float*, std::size_t) override { ++host_sums; }
    void progress() override {}
    void wait_all(lf::Collective) override {}
    void sum(double*, std::size_t, lf::Collective) override {}
    void broadcast(float*, std::size_t, int, lf::Collective) override {}
    void broadcast(std::string& bytes, int, lf::Collective) override { broadcast_bytes = bytes.size(); }
    void wait_until(const std::function<bool()>& done, lf::Collective) override {
        ++waits;
        while (!done()) {}
    }
    [[noreturn]] void abort(const std::string& m) override {
        std::fprintf(stderr, "abort: %s\n", m.c_str());
        std::abort();
    }
    int host_sums = 0, waits = 0;
    std::size_t broadcast_bytes = 0;
};

double loss_of(const lf::Metrics& m) {
    for (const auto& [k, v] : m)
        if (k == "loss") return v;
    return std::nan("");
}

lf::TensorDataset random_images(const lf::Shape& shape, int samples) {
    lf::TensorDataset d;
    d.sample_shape = shape;
    for (int c = 0; c < 10; ++c) d.class_names.push_back(std::to_string(c));
    d.images = gpu_test::random_vector(std::size_t(samples * shape.elements()), 5);
    for (int i = 0; i < samples; ++i) d.labels.push_back(i % 10);
    return d;
}

}  // namespace

class TestCudaDataParallel : public QObject {
    Q_OBJECT
private slots:
    void nccl_scales_and_sums_the_device_gradients() {
        const lf::Project p = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj");
        lf::Model model(p.graph);
        model.init_weights(3);
        auto dm = lf::load_model(model, gpu_test::kGpu);
        auto plan = dm->make_plan({.device = gpu_test::kGpu, .batch = 4});
        const auto x = gpu_test::random_vector(std::size_t(4 * plan->input_width()), 1);
        const auto dy = gpu_test::random_vector(std::size_t(4 * plan->output_width()), 2);
        plan->set_input(x.data());
        plan->forward();
        plan->set_output_grad(dy.data(), lf::OutputGrad::Output);
        plan->backward();
        dm->pull_grads();
        const std::size_t n = model.trainable_size();
        const std::vector<float> reference(model.grads().begin(), model.grads().begin() + std::ptrdiff_t(n));

        WorldOfOne world;
        std::unique_ptr<lf::GradientExchange> x1 = dm->gradient_exchange(world);
        QCOMPARE(world.broadcast_bytes, std::size_t(128));  // NCCL's unique id went through the host world
        x1->start_sum(n / 2, n, 0.5f);  // two buckets, the top first
        x1->start_sum(0, n / 2, 0.5f);
        x1->wait_all({"the gradient exchange", 1});
        QCOMPARE(world.waits, 1);
        QCOMPARE(world.host_sums, 0);  // nothing went through the host
        dm->pull_grads();
        for (std::size_t i = 0; i < n; ++i) QCOMPARE(model.grads()[i], reference[i] * 0.5f);
        x1->scale(n, 2.f);
        dm->pull_grads();
        for (std::size_t i = 0; i < n; ++i) QCOMPARE(model.grads()[i], reference[i]);
        x1->scale(n, 0.f);
        dm->pull_grads();
        for (std::size_t i = 0; i < n; ++i) QCOMPARE(model.grads()[i], 0.f);
    }

    void a_data_parallel_fit_of_one_rank_is_the_plain_fit() {
        lf::Project p = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj");
        p.training.epochs = 2;
        p.training.batch_size = 16;
        const lf::TensorDataset d = random_images({28, 28, 1}, 80);
        std::vector<std::vector<lf::Metrics>> histories;
        for (bool parallel : {false, true}) {
            lf::Model model(p.graph);
            model.init_weights(7);
            lf::Trainer trainer(model, p.training, gpu_test::kGpu);
            WorldOfOne world;
            if (parallel) trainer.set_communicator(&world);
            histories.push_back(trainer.fit(d, nullptr).history);
            if (parallel) QCOMPARE(world.host_sums, 0);
        }
        QCOMPARE(histories[1].size(), histories[0].size());
        for (std::size_t e = 0; e < histories[0].size(); ++e) {
            const double plain = loss_of(histories[0][e]), one = loss_of(histories[1][e]);
            std::printf("epoch %zu: loss plain %.7f, data-parallel %.7f\n", e + 1, plain, one);
            QVERIFY2(std::abs(one - plain) <= 1e-5 * std::max(1.0, std::abs(plain)),
                     qPrintable(QString("epoch %1: %2 vs %3").arg(e + 1).arg(one).arg(plain)));
        }
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaDataParallel>(argc, argv); }
#include "test_cuda_data_parallel.moc"
