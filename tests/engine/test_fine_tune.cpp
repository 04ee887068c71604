// Fine-tuning: Keras' `trainable` flag on a layer. A frozen layer's weights (BatchNormalization's
// moving statistics included) come out of one epoch byte-identical, get no gradient and no
// optimizer state; backward stops below the lowest trainable layer; a frozen BatchNormalization
// between trainable layers passes the right gradient down; a run with frozen layers resumes
// exactly. Runs on the CPU and on the seam test backend (LF_TEST_DEVICE).
#include <QtTest>

#include <cstring>
#include <random>

#include "device_plan.h"
#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/fine_tune.h"
#include "layerforge/graph/model.h"
#include "layerforge/graph/network_report.h"
#include "layerforge/graph/schedule.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/trainer.h"

namespace {

using lf::IntList;
const std::string kCut = "relu_10", kHead = "dense_12";
using lf::Params;

Params conv(std::int64_t filters) {
    return {{"filters", filters}, {"kernel_size", IntList{3, 3}}, {"padding", std::string("same")}};
}

// A residual block as in resnet: conv-BN-relu-conv-BN, added to the block's input, relu; then the
// head: global pooling and Dense(3, softmax). The backbone is everything up to kCut.
lf::Graph resnet_like() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{8, 8, 3}}});
    auto stem = b.add("Conv2D", conv(8), {in});
    auto stem_bn = b.add("BatchNormalization", {}, {stem});
    auto stem_relu = b.add("ReLU", {}, {stem_bn});
    auto c1 = b.add("Conv2D", conv(8), {stem_relu});
    auto bn1 = b.add("BatchNormalization", {}, {c1});
    auto r1 = b.add("ReLU", {}, {bn1});
    auto c2 = b.add("Conv2D", conv(8), {r1});
    auto bn2 = b.add("BatchNormalization", {}, {c2});
    auto add = b.add("Add", {}, {bn2, stem_relu});
    auto out = b.add("ReLU", {}, {add});
    auto pool = b.add("GlobalAveragePooling2D", {}, {out});
    b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("softmax")}}, {pool});
    return b.graph;
}

lf::Graph frozen(lf::Graph g, const std::vector<std::string>& ids) {
    for (const std::string& id : ids) g.find(id)->trainable = false;
    return g;
}

lf::Graph frozen_backbone() {
    lf::Graph g = resnet_like();
    return frozen(g, lf::nodes_up_to(g, kCut));
}

lf::TensorDataset images(std::int64_t n, std::uint64_t seed) {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{8, 8, 3};
    d.class_names = {"a", "b", "c"};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int32_t label = std::int32_t(i % 3);
        for (int k = 0; k < 8 * 8 * 3; ++k) d.images.push_back(u(rng) + (k % 3 == label ? 0.5f : 0.f));
        d.labels.push_back(label);
    }
    return d;
}

lf::TrainingConfig config(std::int64_t epochs = 1) {
    lf::TrainingConfig c;  // Adam
    c.epochs = epochs;
    c.batch_size = 6;
    c.seed = 5;
    return c;
}

// Every weight of `node` in `weights` (laid out as the model's) as raw bytes, moving statistics included.
std::string bytes_of(const lf::Model& m, const std::vector<float>& weights, const std::string& node) {
    std::string s;
    for (const lf::WeightRef* w : m.weights_of(node))
        s.append(reinterpret_cast<const char*>(weights.data() + w->offset), w->size * sizeof(float));
    return s;
}

bool all_zero(const float* p, std::size_t n) {
    return std::all_of(p, p + n, [](float v) { return v == 0.f; });
}

const lf::Graph kBackbone = resnet_like();
const std::vector<std::string> kBackboneNodes = lf::nodes_up_to(kBackbone, kCut);

struct Checkpoints : lf::CheckpointSink {
    lf::Model* model = nullptr;
    lf::Trainer* trainer = nullptr;
    std::vector<std::string> blobs;
    void save(const lf::TrainState& s, const lf::Metrics&) override {
        blobs.push_back(lf::encode_checkpoint(*model, trainer->optimizer(), s));
    }
};

}  // namespace

class TestFineTune : public QObject {
    Q_OBJECT
    const lf::TensorDataset train_ = images(30, 1);

private slots:
    void frozenLayersLeaveTheOptimizersRange() {
        lf::Model all(resnet_like()), part(frozen_backbone());
        QVERIFY(part.trainable_size() < all.trainable_size());
        QCOMPARE(part.weights().size(), all.weights().size());  // every weight is still held and saved
        std::size_t head = 0;
        for (const lf::WeightRef& w : part.weight_refs()) {
            const bool in_backbone = std::count(kBackboneNodes.begin(), kBackboneNodes.end(), w.node) > 0;
            QCOMPARE(w.trainable, !in_backbone);
            if (!w.trainable) continue;
            QVERIFY(w.offset + w.size <= part.trainable_size());
            head += w.size;
        }
        QCOMPARE(part.trainable_size(), head);
        QCOMPARE(std::size_t(part.analysis().trainable_params), head);
        QCOMPARE(part.analysis().total_params, all.analysis().total_params);
        QCOMPARE(std::size_t(lf::analyze_network(part.graph(), lf::ReportOptions{}).trainable_params), head);
    }

    void oneEpochWithAFrozenBackboneChangesOnlyTheHead() {
        lf::Model model(frozen_backbone());
        model.init_weights(7);
        const std::vector<float> before = model.weights();
        lf::Trainer trainer(model, config(), lf::test::device());
        const lf::FitResult r = trainer.fit(train_, nullptr);
        QCOMPARE(r.status, lf::RunStatus::Finished);
        for (const std::string& id : kBackboneNodes)  // BatchNormalization's moving statistics too
            QVERIFY2(bytes_of(model, model.weights(), id) == bytes_of(model, before, id), qPrintable("frozen " + QString::fromStdString(id) + " changed"));
        QVERIFY(bytes_of(model, model.weights(), kHead) != bytes_of(model, before, kHead));
        // Adam's slots of frozen weights were never touched; the head's were.
        for (auto& [name, slot] : trainer.optimizer().state()) {
            QCOMPARE(slot->size(), model.weights().size());
            const std::size_t n = model.trainable_size();
            QVERIFY2(all_zero(slot->data() + n, slot->size() - n), name.c_str());
            QVERIFY(!all_zero(slot->data(), n));
        }
    }

    void trainableBatchNormalizationStillUpdatesItsStatistics() {
        // The control: without freezing, the same epoch moves the moving statistics.
        lf::Model model(resnet_like());
        model.init_weights(7);
        const std::vector<float> before = model.weights();
        lf::Trainer trainer(model, config(), lf::test::device());
        trainer.fit(train_, nullptr);
        QVERIFY(bytes_of(model, model.weights(), "batchnormalization_2") != bytes_of(model, before, "batchnormalization_2"));
    }

    void backwardStopsAtTheLowestTrainableLayer() {
        lf::Model model(frozen_backbone());
        model.init_weights(3);
        lf::test::DevicePlan plan(model, {.batch = 4, .mode = lf::PlanMode::Train});
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        for (std::int64_t i = 0; i < 4 * 8 * 8 * 3; ++i) plan.input()[i] = u(rng);
        const std::int32_t labels[] = {0, 1, 2, 0};
        const auto loss = lf::make_loss("SparseCategoricalCrossentropy", {});
        plan.train_step(labels, *loss);
        for (const lf::LayerProfile& p : plan.plan().profile()) {
            const bool in_backbone = std::count(kBackboneNodes.begin(), kBackboneNodes.end(), p.node) > 0;
            QVERIFY2(p.backwards == (p.node == kHead ? 1 : 0),
                     qPrintable(QString::fromStdString(p.node) + " backwards " + QString::number(p.backwards)));
            if (in_backbone) QVERIFY(p.forwards <= 1);  // a folded BatchNormalization runs no kernel
        }
        // No gradient of a frozen weight was written: the device's gradients of them are zero.
        plan.device_model().pull_grads();
        const std::size_t n = model.trainable_size();
        QVERIFY(all_zero(model.grads().data() + n, model.grads().size() - n));
        QVERIFY(!all_zero(model.grads().data(), n));
        // Frozen convolutions need no backward kernels, and absorb their frozen BatchNormalization.
        for (const auto& [node, impl] : plan.kernels())
            if (node.rfind("conv2d", 0) == 0) QVERIFY2(impl.find(" / ") == std::string::npos, impl.c_str());
        const lf::Schedule s = lf::make_schedule(model, {.batch = 4, .training = true},
                                                 [](const lf::ScheduledStep&, const lf::Schedule&) { return true; });
        QVERIFY(s.step("batchnormalization_2").folded);
        QVERIFY(s.step("conv2d_1").frozen);
        QCOMPARE(s.step("conv2d_1").grad, lf::kNoBuffer);
        const lf::Model all_trainable(resnet_like());
        const lf::Schedule all = lf::make_schedule(all_trainable, {.batch = 4, .training = true},
                                                   [](const lf::ScheduledStep&, const lf::Schedule&) { return true; });
        QVERIFY(s.bytes(lf::BufferKind::Gradient) * 4 < all.bytes(lf::BufferKind::Gradient));
    }

    // Frozen conv + BatchNormalization between trainable layers: the stem's gradient goes through
    // the frozen BatchNormalization in inference mode; compared with central differences.
    void aFrozenBlockInTheMiddlePassesTheGradientDown() {
        lf::Model model(frozen(resnet_like(), {"conv2d_4", "batchnormalization_5"}));
        model.init_weights(9);
        for (const lf::WeightRef* w : model.weights_of("batchnormalization_5"))  // statistics that matter
            for (std::size_t i = 0; i < w->size; ++i)
                model.weights()[w->offset + i] = w->name.ends_with("moving_variance") ? 2.f + 0.1f * float(i)
                                                 : w->name.ends_with("moving_mean")   ? 0.05f * float(i)
                                                                                      : model.weights()[w->offset + i];
        const std::vector<float> before = model.weights();
        lf::test::DevicePlan plan(model, {.batch = 3, .mode = lf::PlanMode::Train});
        std::mt19937 rng(2);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        for (std::int64_t i = 0; i < 3 * 8 * 8 * 3; ++i) plan.input()[i] = u(rng);
        const std::int32_t labels[] = {2, 0, 1};
        const auto loss = lf::make_loss("SparseCategoricalCrossentropy", {});
        plan.train_step(labels, *loss);
        QVERIFY(bytes_of(model, model.weights(), "batchnormalization_5") == bytes_of(model, before, "batchnormalization_5"));
        QVERIFY(bytes_of(model, model.weights(), "batchnormalization_2") != bytes_of(model, before, "batchnormalization_2"));
        const std::vector<float> grads = model.grads();
        const lf::WeightRef* k = model.find_weight("conv2d_1/kernel");
        QVERIFY(k && k->trainable);
        // The stem's BatchNormalization runs on batch statistics: differences of the whole loss.
        for (std::size_t i : {std::size_t(0), std::size_t(37), std::size_t(100)}) {
            const float h = 1e-2f, w0 = model.weights()[k->offset + i];
            double l[2];
            for (int s = 0; s < 2; ++s) {
                model.weights() = before;
                model.weights()[k->offset + i] = w0 + (s ? h : -h);
                plan.forward();
                l[s] = plan.loss(labels, *loss);
            }
            const double numeric = (l[1] - l[0]) / (2 * h), analytic = grads[k->offset + i];
            QVERIFY2(std::abs(numeric - analytic) <= 2e-3 + 0.05 * std::abs(numeric),
                     qPrintable(QString("kernel[%1]: numeric %2, analytic %3").arg(i).arg(numeric).arg(analytic)));
        }
        QVERIFY(all_zero(grads.data() + model.find_weight("conv2d_4/kernel")->offset,
                         model.find_weight("conv2d_4/kernel")->size));
    }

    void aRunWithFrozenLayersResumesExactly() {
        lf::Model model(frozen_backbone());
        model.init_weights(4);
        lf::Trainer trainer(model, config(3), lf::test::device());
        Checkpoints sink;
        sink.model = &model;
        sink.trainer = &trainer;
        trainer.set_checkpointing({.every_steps = 3, .every_epochs = 1}, &sink);
        QCOMPARE(trainer.fit(train_, nullptr).status, lf::RunStatus::Finished);
        QVERIFY(sink.blobs.size() >= 4);
        for (std::size_t c : {std::size_t(1), sink.blobs.size() / 2}) {
            lf::Model m2(frozen_backbone());
            m2.init_weights(99);
            lf::Trainer t2(m2, config(3), lf::test::device());
            const lf::TrainState state = lf::restore_checkpoint(m2, t2.optimizer(), sink.blobs[c], "checkpoint");
            QCOMPARE(t2.fit(train_, nullptr, &state).status, lf::RunStatus::Finished);
            QVERIFY2(m2.weights() == model.weights(), qPrintable(QString("checkpoint %1").arg(c)));
        }
    }
};

QTEST_GUILESS_MAIN(TestFineTune)
#include "test_fine_tune.moc"
