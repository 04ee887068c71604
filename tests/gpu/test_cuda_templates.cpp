// One short training run per template on cuda:0 against the CPU (ctest -L gpu): the trainer end
// to end (data batches, loss, optimizer, BatchNormalization's moving statistics, dropout masks)
// on random images of each template's input shape, each epoch's loss within float32 noise of
// the CPU's. Without a CUDA device: skipped with the reason (exit 77).
#include "cuda_compare.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"

namespace {

double metric(const lf::Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    return std::nan("");
}

lf::TensorDataset random_images(const lf::Shape& shape, int samples, int classes) {
    lf::TensorDataset d;
    d.sample_shape = shape;
    for (int c = 0; c < classes; ++c) d.class_names.push_back(std::to_string(c));
    d.images = gpu_test::random_vector(std::size_t(samples * shape.elements()), 5);
    for (float& v : d.images) v = (v + 1) / 2;
    for (int i = 0; i < samples; ++i) d.labels.push_back(i % classes);
    return d;
}

}  // namespace

class TestCudaTemplates : public QObject {
    Q_OBJECT
private slots:
    void each_template_trains_like_on_the_cpu_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("samples");
        for (const char* f : {"fashion_mlp", "fashion_cnn", "fashion_functional", "fashion_resnet"})
            QTest::newRow(f) << f << 120;
        QTest::newRow("mobilenet_v2_small") << "mobilenet_v2_small" << 48;
        QTest::newRow("cats_vs_dogs_cnn") << "cats_vs_dogs_cnn" << 24;
    }
    void each_template_trains_like_on_the_cpu() {
        QFETCH(QString, file);
        QFETCH(int, samples);
        lf::Project p = lf::load_project(gpu_test::templates_dir() + file.toStdString() + ".lfproj");
        p.training.epochs = 2;
        p.training.batch_size = samples / 4;
        const lf::Model probe(p.graph);
        const lf::Shape shape = probe.info(probe.input_node()).layer.output;
        const int classes = int(probe.info(probe.output_node()).layer.output.elements());
        const lf::TensorDataset d = random_images(shape, samples, classes);
        std::vector<std::vector<lf::Metrics>> histories;
        for (const std::string device : {"cpu", gpu_test::kGpu.c_str()}) {
            lf::Model model(p.graph);
            model.init_weights(7);
            lf::Trainer trainer(model, p.training, device);
            histories.push_back(trainer.fit(d, nullptr).history);
        }
        QCOMPARE(histories[1].size(), histories[0].size());
        for (std::size_t e = 0; e < histories[0].size(); ++e) {
            const double cpu = metric(histories[0][e], "loss"), gpu = metric(histories[1][e], "loss");
            std::printf("%s epoch %zu: loss cpu %.6f, cuda %.6f\n", qPrintable(file), e + 1, cpu, gpu);
            QVERIFY2(std::abs(gpu - cpu) <= 2e-3 * std::max(1.0, std::abs(cpu)),
                     qPrintable(QString("epoch %1: %2 vs %3").arg(e + 1).arg(gpu).arg(cpu)));
        }
    }
};

int main(int argc, char** argv) { return gpu_test::run_suite<TestCudaTemplates>(argc, argv); }
#include "test_cuda_templates.moc"
