// The optimizer steps on the device against the same rules on the CPU (ctest -L gpu): SGD
// (plain, momentum, Nesterov), Adam, AdamW and RMSprop (with and without momentum), several
// steps each from the same gradients; the rule's state comes back to the host with the
// weights (what a checkpoint saves), and state set on the host (a resumed run) is what the
// next device step starts from. Without a CUDA device: skipped with the reason (exit 77).
#include "cuda_compare.h"
#include "graph_builder.h"
#include "layerforge/train/optimizer.h"

namespace {

using gpu_test::kGpu;
using gpu_test::random_vector;

// A model, its device copy and a plan, stepped with one fixed input and output gradient.
struct Stepper {
    lf::Model model;
    std::unique_ptr<lf::DeviceModel> dm;
    std::unique_ptr<lf::Plan> plan;
    std::unique_ptr<lf::Optimizer> opt;
    std::vector<float> x, dy;

    Stepper(const std::string& device, const std::string& type, const lf::Params& params)
        : model(mlp_builder({6, 6, 2}, 24, "tanh").graph) {
        model.init_weights(5);
        dm = lf::load_model(model, device);
        plan = dm->make_plan({.device = device, .batch = 8, .mode = lf::PlanMode::Train});
        opt = lf::make_optimizer(type, params);
        opt->bind(model.weights().size());
        x = random_vector(std::size_t(8 * plan->input_width()), 21);
        dy = random_vector(std::size_t(8 * plan->output_width()), 22);
    }
    void step(double lr) {
        plan->set_input(x.data());
        plan->forward();
        plan->set_output_grad(dy.data());
        plan->backward();
        dm->update(*opt, lr);
    }
    std::vector<float> weights() {
        dm->pull_weights();
        return model.weights();
    }
    std::vector<float> state(std::size_t i) { return *opt->state().at(i).second; }
};

}  // namespace

class TestCudaOptimizers : public QObject {
    Q_OBJECT
private slots:
    void every_rule_steps_like_on_the_cpu_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<lf::Params>("params");
        QTest::newRow("SGD") << "SGD" << lf::Params{{"learning_rate", 0.1}};
        QTest::newRow("SGD momentum") << "SGD" << lf::Params{{"learning_rate", 0.05}, {"momentum", 0.9}};
        QTest::newRow("SGD Nesterov") << "SGD" << lf::Params{{"learning_rate", 0.05}, {"momentum", 0.9}, {"nesterov", true}};
        QTest::newRow("Adam") << "Adam" << lf::Params{{"learning_rate", 0.01}};
        QTest::newRow("AdamW") << "AdamW" << lf::Params{{"learning_rate", 0.01}, {"weight_decay", 0.05}};
        QTest::newRow("RMSprop") << "RMSprop" << lf::Params{{"learning_rate", 0.01}};
        QTest::newRow("RMSprop momentum") << "RMSprop" << lf::Params{{"learning_rate", 0.01}, {"momentum", 0.5}};
    }
    void every_rule_steps_like_on_the_cpu() {
        QFETCH(QString, type);
        QFETCH(lf::Params, params);
        Stepper cpu("cpu", type.toStdString(), params), gpu(kGpu, type.toStdString(), params);
        for (int s = 0; s < 6; ++s) {
            const double lr = 0.5 + 0.1 * s;  // a schedule's changing rate, as the trainer passes it
            cpu.step(lr * cpu.opt->learning_rate() / 0.5);
            gpu.step(lr * gpu.opt->learning_rate() / 0.5);
            LF_COMPARE_VECTORS(gpu.weights(), cpu.weights(), 1e-5);
            for (std::size_t i = 0; i < cpu.opt->state().size(); ++i)
                LF_COMPARE_VECTORS(gpu.state(i), cpu.state(i), 1e-5);  // back with the weights
        }
        QCOMPARE(gpu.opt->iterations(), cpu.opt->iterations());
        QCOMPARE(gpu.opt->iterations(), std::int64_t(6));
    }

    // A resume sets the rule's host state and pushes the weights: the device starts from them.
    void state_set_on_the_host_is_where_the_device_continues() {
        const lf::Params p{{"learning_rate", 0.01}};
        Stepper cpu("cpu", "Adam", p), gpu(kGpu, "Adam", p);
        cpu.step(0.01);
        gpu.step(0.01);
        for (Stepper* s : {&cpu, &gpu}) {
            for (auto& [name, buffer] : s->opt->state())
                for (std::size_t i = 0; i < buffer->size(); ++i) (*buffer)[i] = 0.01f * float(i % 7);
            s->opt->set_iterations(10);
            s->model.weights() = cpu.model.weights();
            s->dm->push_weights();
        }
        cpu.step(0.01);
        gpu.step(0.01);
        LF_COMPARE_VECTORS(gpu.weights(), cpu.weights(), 1e-5);
        LF_COMPARE_VECTORS(gpu.state(0), cpu.state(0), 1e-5);
        LF_COMPARE_VECTORS(gpu.state(1), cpu.state(1), 1e-5);
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaOptimizers>(argc, argv); }
#include "test_cuda_optimizers.moc"
