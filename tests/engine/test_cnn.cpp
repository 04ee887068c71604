// The convolutional networks: BatchNormalization's training vs inference behaviour and its
// non-trainable statistics, every template compiling without reference kernels, and the
// tutorial's CNN learning a Fashion-MNIST subset.
#include <QDir>
#include <QFile>
#include <QtTest>

#include <cmath>

#include "graph_builder.h"
#include "layerforge/core/memory.h"
#include "layerforge/data/dataset.h"
#include "device_plan.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

using lf::IntList;

namespace {

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

const float* weight(lf::Model& m, const std::string& name) {
    const lf::WeightRef* w = m.find_weight(name);
    return w ? m.weights().data() + w->offset : nullptr;
}

// Input(3) -> BatchNormalization(momentum) with 4 fixed samples.
struct BatchNormFixture {
    GraphBuilder b;
    std::vector<float> x = {1, -2, 0.5f, 3, 0, 1.5f, -1, 4, 2.5f, 5, 2, -0.5f};
    BatchNormFixture(double momentum) {
        auto in = b.add("Input", {{"shape", IntList{3}}});
        b.add("BatchNormalization", {{"momentum", momentum}}, {in});
    }
};

}  // namespace

class TestCnn : public QObject {
    Q_OBJECT

private slots:
    void batch_norm_uses_batch_statistics_while_training_and_moving_ones_at_inference() {
        BatchNormFixture f(0.9);
        lf::Model model(f.b.graph);
        model.init_weights(1);
        float* gamma = model.weights().data() + model.find_weight("batchnormalization_1/gamma")->offset;
        float* beta = model.weights().data() + model.find_weight("batchnormalization_1/beta")->offset;
        for (int c = 0; c < 3; ++c) gamma[c] = 1.f + 0.5f * float(c), beta[c] = 0.25f * float(c);
        lf::test::DevicePlan train(model, {.batch = 4, .mode = lf::PlanMode::Train});
        std::copy(f.x.begin(), f.x.end(), train.input());
        train.forward();
        const float* mm = weight(model, "batchnormalization_1/moving_mean");
        const float* mv = weight(model, "batchnormalization_1/moving_variance");
        for (int c = 0; c < 3; ++c) {
            double mean = 0, var = 0;
            for (int i = 0; i < 4; ++i) mean += f.x[std::size_t(i * 3 + c)] / 4.0;
            for (int i = 0; i < 4; ++i) var += std::pow(f.x[std::size_t(i * 3 + c)] - mean, 2) / 4.0;
            for (int i = 0; i < 4; ++i) {
                double want = (f.x[std::size_t(i * 3 + c)] - mean) / std::sqrt(var + 1e-3) * gamma[c] + beta[c];
                LF_COMPARE_NEAR(train.output()[i * 3 + c], want, 1e-5);
            }
            LF_COMPARE_NEAR(mm[c], 0.1 * mean, 1e-6);                    // from 0
            LF_COMPARE_NEAR(mv[c], 0.9 + 0.1 * var * 4.0 / 3.0, 1e-5);  // from 1, unbiased
        }
        lf::test::DevicePlan infer(model, {.batch = 4, .mode = lf::PlanMode::Infer});
        std::copy(f.x.begin(), f.x.end(), infer.input());
        infer.forward();
        for (int i = 0; i < 4; ++i)
            for (int c = 0; c < 3; ++c) {
                double want = (f.x[std::size_t(i * 3 + c)] - mm[c]) / std::sqrt(mv[c] + 1e-3) * gamma[c] + beta[c];
                LF_COMPARE_NEAR(infer.output()[i * 3 + c], want, 1e-5);
            }
    }

    void moving_statistics_are_stored_after_the_trainable_weights() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto d = b.add("Dense", {{"units", std::int64_t(3)}}, {in});
        auto n = b.add("BatchNormalization", {}, {d});
        b.add("Dense", {{"units", std::int64_t(2)}}, {n});
        lf::Model model(b.graph);
        QCOMPARE(model.trainable_size(), std::size_t(4 * 3 + 3 + 3 + 3 + 3 * 2 + 2));
        QCOMPARE(model.weights().size(), model.trainable_size() + 6);
        for (const lf::WeightRef& w : model.weight_refs())
            QCOMPARE(w.offset < model.trainable_size(), w.trainable);
        QCOMPARE(model.analysis().trainable_params, std::int64_t(model.trainable_size()));
    }

    void optimizers_leave_non_trainable_weights_alone() {
        // momentum 1: the layer keeps its moving statistics as they are, so any change would come
        // from the optimizer (AdamW decays every weight it is given).
        BatchNormFixture f(1.0);
        lf::Model model(f.b.graph);
        model.init_weights(1);
        lf::TensorDataset data;
        data.sample_shape = lf::Shape{3};
        data.images = f.x;
        data.labels = {0, 1, 2, 1};
        lf::TrainingConfig cfg;
        cfg.optimizer = {"AdamW", {{"learning_rate", 0.1}, {"weight_decay", 0.5}}};
        cfg.loss_params = {{"from_logits", true}};
        cfg.batch_size = 4;
        cfg.epochs = 3;
        lf::Trainer trainer(model, cfg);
        QCOMPARE(trainer.fit(data, nullptr).status, lf::RunStatus::Finished);
        for (int c = 0; c < 3; ++c) {
            QCOMPARE(weight(model, "batchnormalization_1/moving_mean")[c], 0.f);
            QCOMPARE(weight(model, "batchnormalization_1/moving_variance")[c], 1.f);
        }
        QVERIFY(weight(model, "batchnormalization_1/gamma")[0] != 1.f);
    }

    void templates_compile_without_reference_kernels_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("batch");
        for (const char* t : {"fashion_cnn", "fashion_resnet", "mobilenet_v2_small", "cats_vs_dogs_cnn", "fashion_mlp",
                              "fashion_functional"})
            QTest::newRow(t) << QString(t) << qint64(std::string(t) == "cats_vs_dogs_cnn" ? 2 : 8);
    }
    void templates_compile_without_reference_kernels() {
        QFETCH(QString, file);
        QFETCH(qint64, batch);
        lf::Project p = lf::load_project(templates_dir() + file.toStdString() + ".lfproj");
        lf::Model model(p.graph);
        for (lf::PlanMode mode : {lf::PlanMode::Train, lf::PlanMode::Infer}) {
            lf::test::DevicePlan plan(model, {.batch = batch, .mode = mode});
            for (const auto& [node, impl] : plan.kernels())
                QVERIFY2(impl.find("ref:") == std::string::npos, qPrintable(QString::fromStdString(node + ": " + impl)));
        }
    }

    void memory_estimate_matches_the_built_plan_and_is_accounted() {
        lf::Project p = lf::load_project(templates_dir() + "fashion_resnet.lfproj");
        lf::Model model(p.graph);
        const lf::PlanOptions opt{.batch = 16, .mode = lf::PlanMode::Train};
        const lf::MemoryBreakdown before = lf::memory_in_use();
        const lf::MemoryBreakdown estimate = lf::backend_for("cpu").estimate(model, opt);
        QCOMPARE(lf::memory_in_use().total(), before.total());  // an estimate allocates nothing
        {
            lf::test::DevicePlan plan(model, opt);
            const lf::MemoryBreakdown built = plan.memory();
            QCOMPARE(built.activations, estimate.activations);
            QCOMPARE(built.gradients, estimate.gradients);
            QVERIFY(built.workspaces > 0);  // max-pool-free, but BatchNorm statistics and weight reorders
            const lf::MemoryBreakdown now = lf::memory_in_use();
            QCOMPARE(now.activations, before.activations + built.activations);
            QCOMPARE(now.total(), before.total() + built.total());
            QVERIFY(lf::memory_peak().total() >= now.total());
        }
        QCOMPARE(lf::memory_in_use().total(), before.total());
        QCOMPARE(before.weights, model.weights().size() * sizeof(float));
    }

    void tutorial_cnn_learns_a_fashion_mnist_subset() {
        if (!QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
            QFAIL("dataset-fashion-mnist is not installed: run scripts/setup.sh");
        const lf::DatasetSplits data = lf::load_fashion_mnist("", 2000, 500);
        lf::Project p = lf::load_project(templates_dir() + "fashion_cnn.lfproj");
        lf::Model model(p.graph);
        model.init_weights(42);
        lf::TrainingConfig cfg = p.training;
        cfg.epochs = 1;
        lf::Trainer trainer(model, cfg);
        QCOMPARE(trainer.fit(data.train, nullptr).status, lf::RunStatus::Finished);
        double accuracy = 0;
        for (const auto& [k, v] : trainer.evaluate(data.test).metrics)
            if (k == "accuracy") accuracy = v;
        QVERIFY2(accuracy > 0.65, qPrintable(QString("test accuracy %1 after 40 steps").arg(accuracy)));
    }
};

QTEST_APPLESS_MAIN(TestCnn)
#include "test_cnn.moc"
#include "run_status_text.h"
