// The backend seam: a test-only backend (support/seam_backend.h) that runs the CPU kernels on
// weights, gradients and optimizer updates of its own trains the tutorial's MLP, the CNN and
// the residual network to the same weights, curves and predictions as the CPU backend, bit for
// bit, through the trainer (validation, early stopping that restores the best weights, a
// checkpoint sink that reads the host model); and devices are found through the registry.
#include <QtTest>

#include <random>

#include "lf_test_util.h"
#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"
#include "seam_backend.h"

namespace {

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

// n random 28x28x1 images with labels 0..9.
lf::TensorDataset images(std::int64_t n, std::uint64_t seed) {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{28, 28, 1};
    for (int c = 0; c < 10; ++c) d.class_names.push_back("c" + std::to_string(c));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (std::int64_t i = 0; i < n * 784; ++i) d.images.push_back(u(rng));
    for (std::int64_t i = 0; i < n; ++i) d.labels.push_back(std::int32_t(rng() % 10));
    return d;
}

// Keeps the weights the host model holds each time a checkpoint is offered.
struct WeightsAtCheckpoints : lf::CheckpointSink {
    const lf::Model* model = nullptr;
    std::vector<std::vector<float>> saved;
    void save(const lf::TrainState&, const lf::Metrics&) override { saved.push_back(model->weights()); }
};

struct Outcome {
    std::vector<float> weights, predictions;
    std::vector<lf::Metrics> history;
    std::vector<std::vector<float>> checkpoints;
};

Outcome train_on(const std::string& device, const std::string& templ) {
    lf::Project p = lf::load_project(templates_dir() + templ + ".lfproj");
    p.training.epochs = 3;
    p.training.batch_size = 24;  // 60 samples: two full batches and a remainder per epoch
    p.training.callbacks = {{"EarlyStopping", {{"monitor", std::string("val_loss")}, {"patience", std::int64_t(5)},
                                               {"restore_best_weights", true}}}};
    lf::Model model(p.graph);
    model.init_weights(7);
    const lf::TensorDataset train = images(60, 1), validation = images(30, 2);
    lf::Trainer trainer(model, p.training, device);
    WeightsAtCheckpoints sink;
    sink.model = &model;
    trainer.set_checkpointing({.every_steps = 2}, &sink);
    Outcome o;
    o.history = trainer.fit(train, &validation).history;
    o.weights = model.weights();
    o.predictions = trainer.predict(validation);
    o.checkpoints = sink.saved;
    return o;
}

}  // namespace

class TestBackendSeam : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { lf::test::register_seam_backend(); }

    void seam_backend_trains_like_the_cpu_bit_for_bit_data() {
        QTest::addColumn<QString>("templ");
        QTest::newRow("MLP") << "fashion_mlp";
        QTest::newRow("CNN") << "fashion_cnn";
        QTest::newRow("residual") << "fashion_resnet";
    }
    void seam_backend_trains_like_the_cpu_bit_for_bit() {
        QFETCH(QString, templ);
        const Outcome cpu = train_on("cpu", templ.toStdString());
        const Outcome seam = train_on(lf::test::kSeamDevice, templ.toStdString());
        QCOMPARE(seam.history.size(), cpu.history.size());
        for (std::size_t e = 0; e < cpu.history.size(); ++e) QCOMPARE(seam.history[e], cpu.history[e]);
        QVERIFY(seam.weights == cpu.weights);  // bit for bit, moving statistics included
        QVERIFY(seam.predictions == cpu.predictions);
        QVERIFY(!cpu.checkpoints.empty());
        QVERIFY(seam.checkpoints == cpu.checkpoints);  // the sink saw the device's weights, pulled
        QVERIFY(cpu.checkpoints.front() != cpu.weights);  // and they changed while training
    }

    void devices_come_from_the_registered_backends() {
        const lf::DeviceList list = lf::list_devices();
        QVERIFY(list.devices.size() >= 2);
        QCOMPARE(list.devices.front().id, std::string("cpu"));
        QCOMPARE(list.devices.back().id, std::string(lf::test::kSeamDevice));
        QCOMPARE(lf::backend_for(lf::test::kSeamDevice).name(), std::string("seam"));
        try {
            lf::backend_for("cuda:3");
            QFAIL("an unknown device was accepted");
        } catch (const lf::Error& e) {
            QCOMPARE(e.kind(), lf::ErrorKind::Input);
            QVERIFY(std::string(e.what()).find("cuda:3") != std::string::npos);
            QVERIFY(std::string(e.what()).find("seam") != std::string::npos);  // names the devices there are
        }
        lf::Model model(lf::load_project(templates_dir() + "fashion_mlp.lfproj").graph);
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::Trainer(model, {}, "cuda:3"));
    }
};

QTEST_APPLESS_MAIN(TestBackendSeam)
#include "test_backend_seam.moc"
