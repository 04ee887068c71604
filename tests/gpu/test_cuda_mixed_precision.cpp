// Mixed precision on cuda:0 (ctest -L gpu): every template's forward and backward pass under
// mixed_bfloat16 and mixed_float16 against the CPU's float32 within 16-bit tolerance (the
// activations rounded to 8 or 11 significant bits between ops, float32 accumulation), and the
// tutorial CNN trained two epochs under each policy lowering the loss as float32 does, with
// mixed_float16's loss scaling applying its steps. Without a CUDA device: skipped with the
// reason (exit 77).
#include "cuda_compare.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"

namespace {

// |a - b| / |b| over the whole vector: 16-bit rounding makes single elements near zero noisy.
double relative_l2(const std::vector<float>& a, const std::vector<float>& b) {
    double d = 0, n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
        n += double(b[i]) * b[i];
    }
    return n == 0 ? std::sqrt(d) : std::sqrt(d / n);
}

#define LF_CLOSE(a, b, tol)                                                                                      \
    do {                                                                                                         \
        QCOMPARE((a).size(), (b).size());                                                                        \
        const double lf_r = relative_l2(a, b);                                                                   \
        QVERIFY2(lf_r <= (tol), qPrintable(QString("%1: relative difference %2").arg(#a).arg(lf_r)));             \
    } while (0)

double loss_of(const lf::Metrics& m) {
    for (const auto& [k, v] : m)
        if (k == "loss") return v;
    return std::nan("");
}

}  // namespace

class TestCudaMixedPrecision : public QObject {
    Q_OBJECT
private slots:
    void a_pass_matches_float32_within_16_bit_tolerance_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("policy");
        for (const char* f : {"fashion_mlp", "fashion_cnn", "fashion_functional", "fashion_resnet", "mobilenet_v2_small",
                              "cats_vs_dogs_cnn"})
            for (lf::Precision p : {lf::Precision::MixedBFloat16, lf::Precision::MixedFloat16})
                QTest::newRow((std::string(f) + " " + lf::to_string(p)).c_str()) << f << int(p);
    }
    void a_pass_matches_float32_within_16_bit_tolerance() {
        QFETCH(QString, file);
        QFETCH(int, policy);
        const lf::Project p = lf::load_project(gpu_test::templates_dir() + file.toStdString() + ".lfproj");
        lf::Model cpu_model(p.graph), gpu_model(p.graph);
        cpu_model.init_weights(3);
        gpu_model.init_weights(3);
        const gpu_test::Pass cpu = gpu_test::run_pass(cpu_model, "cpu", {});
        const gpu_test::Pass gpu = gpu_test::run_pass(gpu_model, gpu_test::kGpu, {.precision = lf::Precision(policy)});
        const double tol = lf::Precision(policy) == lf::Precision::MixedBFloat16 ? 5e-2 : 1e-2;
        LF_CLOSE(gpu.out, cpu.out, tol);
        LF_CLOSE(gpu.in_grad, cpu.in_grad, 4 * tol);  // through every layer, rounded at each
        LF_CLOSE(gpu.w_grad, cpu.w_grad, 4 * tol);
    }

    void mixed_training_lowers_the_loss_like_float32() {
        lf::Project p = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj");
        p.training.epochs = 2;
        p.training.batch_size = 32;
        const lf::Model probe(p.graph);
        lf::TensorDataset d;
        d.sample_shape = probe.info(probe.input_node()).layer.output;
        for (int c = 0; c < 10; ++c) d.class_names.push_back(std::to_string(c));
        // A learnable task: class c lights the c-th band of rows.
        const std::int64_t px = d.sample_shape.elements(), rows = d.sample_shape[0];
        for (int i = 0; i < 320; ++i) {
            const int c = i % 10;
            for (std::int64_t k = 0; k < px; ++k) d.images.push_back((k / (px / rows)) % 10 == c ? 1.f : 0.f);
            d.labels.push_back(c);
        }
        std::vector<double> last;
        for (lf::Precision policy : {lf::Precision::Float32, lf::Precision::MixedBFloat16, lf::Precision::MixedFloat16}) {
            p.training.precision = policy;
            lf::Model model(p.graph);
            model.init_weights(7);
            lf::Trainer trainer(model, p.training, gpu_test::kGpu);
            const auto history = trainer.fit(d, nullptr).history;
            QCOMPARE(int(history.size()), 2);
            const double first = loss_of(history[0]), second = loss_of(history[1]);
            std::printf("%s: loss %.5f, %.5f\n", lf::to_string(policy), first, second);
            QVERIFY2(std::isfinite(second) && second < first, lf::to_string(policy));
            last.push_back(second);
        }
        QVERIFY2(std::abs(last[1] - last[0]) <= 0.1 * last[0] + 0.02, "mixed_bfloat16 learns as float32 does");
        QVERIFY2(std::abs(last[2] - last[0]) <= 0.1 * last[0] + 0.02, "mixed_float16 learns as float32 does");
    }

    // Note [Kernel times on the GPU]: the 20th pass of each kind is timed with CUDA events.
    void the_profile_times_each_layer_on_the_device() {
        const lf::Project p = lf::load_project(gpu_test::templates_dir() + "fashion_cnn.lfproj");
        lf::Model model(p.graph);
        model.init_weights(1);
        auto dm = lf::load_model(model, gpu_test::kGpu);
        auto plan = dm->make_plan({.device = gpu_test::kGpu, .batch = 8, .mode = lf::PlanMode::Train});
        const auto x = gpu_test::random_vector(std::size_t(8 * plan->input_width()), 1);
        const auto dy = gpu_test::random_vector(std::size_t(8 * plan->output_width()), 2);
        std::vector<float> out(dy.size());
        for (int k = 0; k < 20; ++k) {
            plan->set_input(x.data());
            plan->forward();
            plan->read_output(out.data());
            plan->set_output_grad(dy.data());
            plan->backward();
        }
        int timed = 0;
        for (const lf::LayerProfile& l : plan->profile()) {
            if (l.forwards == 0) continue;
            QCOMPARE(l.timed_forwards, std::int64_t(1));
            QVERIFY2(l.forward_ns > 0 && l.forward_ns < std::int64_t(1e9), l.node.c_str());
            std::printf("%s: forward %.3f ms, backward %.3f ms\n", l.node.c_str(), l.forward_ns / 1e6, l.backward_ns / 1e6);
            ++timed;
        }
        QVERIFY(timed > 3);
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaMixedPrecision>(argc, argv); }
#include "test_cuda_mixed_precision.moc"
