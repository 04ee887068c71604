// CUDA graphs and the pinned input path on cuda:0 (ctest -L gpu): training steps replayed from
// captured graphs give bit for bit the weights, moving statistics and losses of the same steps
// run eagerly (templates with dropout and batch normalization, a partial last batch with its
// own plan, Adam's per-step constants), and the plan says it replayed them; batches sent
// through pinned memory on the copy stream reach the passes that follow them (the CPU's
// outputs), also when the host reuses its array at once or sends two before a pass; a whole
// fit with graphs equals one with LF_CUDA_GRAPHS=0. Without a CUDA device: skipped (exit 77).
#include "cuda_compare.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"

namespace {

struct Run {
    std::vector<double> losses;
    std::vector<float> weights;
    std::string execution;  // the full-batch plan's
};

// `steps` training steps of `graph` on cuda:0, every fourth with a partial batch (its own
// plan), as the trainer makes them: forward and the loss, then backward with Adam's update.
Run train_steps(const lf::Graph& graph, bool graphs, std::int64_t batch, int steps) {
    lf::Model model(graph);
    model.init_weights(11);
    auto dm = lf::load_model(model, gpu_test::kGpu);
    auto adam = lf::make_optimizer("Adam", {{"learning_rate", 0.002}});
    adam->bind(model.trainable_size());
    auto loss = lf::make_loss("SparseCategoricalCrossentropy");
    auto full = dm->make_plan({.device = gpu_test::kGpu, .batch = batch, .seed = 5, .cuda_graphs = graphs});
    auto rest = dm->make_plan({.device = gpu_test::kGpu, .batch = batch - 3, .seed = 5, .cuda_graphs = graphs});
    lf::HostLoss full_loss(*full), rest_loss(*rest);
    Run r;
    for (int k = 0; k < steps; ++k) {
        const bool partial = k % 4 == 3;
        lf::Plan& plan = partial ? *rest : *full;
        lf::HostLoss& host = partial ? rest_loss : full_loss;
        const auto x = gpu_test::random_vector(std::size_t(plan.batch() * plan.input_width()), 100 + std::uint64_t(k));
        std::vector<std::int32_t> labels(std::size_t(plan.batch()));
        for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = std::int32_t((i + std::size_t(k)) % plan.output_width());
        plan.set_input(x.data());
        r.losses.push_back(host.forward_loss(*loss, labels.data()));
        plan.backward_and_update(*dm, *adam, 0.002 / (1 + 0.1 * k));
    }
    dm->pull_weights();
    r.weights = model.weights();
    r.execution = full->execution();
    return r;
}

std::vector<float> cpu_outputs(const lf::Graph& graph, const std::vector<float>& x, std::int64_t batch) {
    lf::Model model(graph);
    model.init_weights(2);
    auto dm = lf::load_model(model, "cpu");
    auto plan = dm->make_plan({.device = "cpu", .batch = batch, .mode = lf::PlanMode::Infer});
    plan->set_input(x.data());
    plan->forward();
    std::vector<float> out(std::size_t(batch * plan->output_width()));
    plan->read_output(out.data());
    return out;
}

double metric(const lf::Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    return std::nan("");
}

}  // namespace

class TestCudaGraphs : public QObject {
    Q_OBJECT
private slots:
    void replay_equals_eager_bit_for_bit_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("batch");
        QTest::newRow("mobilenet_v2_small (dropout, batch normalization)") << "mobilenet_v2_small" << 8;
        QTest::newRow("fashion_resnet (batch normalization, adds)") << "fashion_resnet" << 16;
        QTest::newRow("fashion_cnn") << "fashion_cnn" << 16;
    }
    void replay_equals_eager_bit_for_bit() {
        QFETCH(QString, file);
        QFETCH(int, batch);
        qunsetenv("LF_CUDA_GRAPHS");
        const lf::Project p = lf::load_project(gpu_test::templates_dir() + file.toStdString() + ".lfproj");
        const Run replayed = train_steps(p.graph, true, batch, 8);
        const Run eager = train_steps(p.graph, false, batch, 8);
        std::printf("%s: %s\n", qPrintable(file), replayed.execution.c_str());
        QVERIFY2(replayed.execution ==
                     "forward: replayed as a CUDA graph; backward and update: replayed as a CUDA graph",
                 replayed.execution.c_str());
        QVERIFY2(eager.execution.find("eager (CUDA graphs are off") != std::string::npos, eager.execution.c_str());
        QCOMPARE(replayed.losses, eager.losses);
        QCOMPARE(replayed.weights, eager.weights);  // moving statistics included
        QVERIFY(replayed.losses.front() != replayed.losses.back());
    }

    // Each batch reaches the pass after it: the host's array may change as soon as set_input
    // returns, and of two batches sent before a pass the second counts.
    void pinned_batches_reach_their_pass() {
        const lf::Project p = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj");
        lf::Model model(p.graph);
        model.init_weights(2);
        auto dm = lf::load_model(model, gpu_test::kGpu);
        const std::int64_t batch = 32;
        auto plan = dm->make_plan({.device = gpu_test::kGpu, .batch = batch, .mode = lf::PlanMode::Infer});
        std::vector<float> host(std::size_t(batch * plan->input_width()));
        std::vector<float> out(std::size_t(batch * plan->output_width()));
        for (int k = 0; k < 6; ++k) {
            const auto x = gpu_test::random_vector(host.size(), 300 + std::uint64_t(k));
            if (k % 3 == 2) {  // a batch that is replaced before any pass reads it
                const auto stale = gpu_test::random_vector(host.size(), 900 + std::uint64_t(k));
                host = stale;
                plan->set_input(host.data());
            }
            host = x;
            plan->set_input(host.data());
            std::fill(host.begin(), host.end(), 1e6f);  // reused at once
            plan->forward();
            plan->read_output(out.data());
            LF_COMPARE_VECTORS(out, cpu_outputs(p.graph, x, batch), 1e-5);
        }
    }

    // The trainer end to end, a partial last batch and evaluation included.
    void a_fit_with_graphs_equals_one_without() {
        lf::Project p = lf::load_project(gpu_test::templates_dir() + "mobilenet_v2_small.lfproj");
        p.training.epochs = 2;
        p.training.batch_size = 10;
        const lf::Model probe(p.graph);
        const lf::Shape shape = probe.info(probe.input_node()).layer.output;
        lf::TensorDataset d;
        d.sample_shape = shape;
        const int classes = int(probe.info(probe.output_node()).layer.output.elements());
        for (int c = 0; c < classes; ++c) d.class_names.push_back(std::to_string(c));
        d.images = gpu_test::random_vector(std::size_t(37 * shape.elements()), 5);
        for (int i = 0; i < 37; ++i) d.labels.push_back(i % classes);
        std::vector<std::vector<lf::Metrics>> histories;
        for (const char* graphs : {"1", "0"}) {
            qputenv("LF_CUDA_GRAPHS", graphs);
            lf::Model model(p.graph);
            model.init_weights(7);
            lf::Trainer trainer(model, p.training, gpu_test::kGpu);
            histories.push_back(trainer.fit(d, &d).history);
        }
        qunsetenv("LF_CUDA_GRAPHS");
        QCOMPARE(histories[0].size(), std::size_t(2));
        for (std::size_t e = 0; e < 2; ++e)
            for (const char* m : {"loss", "val_loss"}) QCOMPARE(metric(histories[0][e], m), metric(histories[1][e], m));
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaGraphs>(argc, argv); }
#include "test_cuda_graphs.moc"
