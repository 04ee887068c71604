// estimate_training_memory from a graph or a project, the figure `layerforge-cli info` prints
// and the studio's status bar shows: equal, part for part, to the estimate over a Model with
// its weights, for every template; and it never allocates the weights (Model::shapes_only).
#include <QtTest>
#include <sys/resource.h>

#include "graph_builder.h"
#include "layerforge/backend/plan.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/optimizer.h"
#include "lf_test_util.h"

namespace {

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

long peak_rss_kb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

void compare(const lf::MemoryBreakdown& a, const lf::MemoryBreakdown& b) {
    QCOMPARE(a.weights, b.weights);
    QCOMPARE(a.gradients, b.gradients);
    QCOMPARE(a.optimizer_state, b.optimizer_state);
    QCOMPARE(a.activations, b.activations);
    QCOMPARE(a.workspaces, b.workspaces);
}

}  // namespace

class TestMemoryEstimate : public QObject {
    Q_OBJECT

private slots:
    void graph_estimate_equals_the_model_estimate_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("batch");
        for (const char* t : {"fashion_mlp", "fashion_cnn", "fashion_resnet", "mobilenet_v2_small", "cats_vs_dogs_cnn"})
            QTest::newRow(t) << QString(t) << qint64(t[0] == 'c' ? 4 : 50);
    }
    void graph_estimate_equals_the_model_estimate() {
        QFETCH(QString, file);
        QFETCH(qint64, batch);
        lf::Project p = lf::load_project(templates_dir() + file.toStdString() + ".lfproj");
        p.training.batch_size = batch;
        const auto optimizer = lf::make_optimizer(p.training.optimizer.type, p.training.optimizer.params);
        const lf::PlanOptions o{.batch = batch, .mode = lf::PlanMode::Train};
        const lf::Model model(p.graph);
        const lf::MemoryBreakdown with_weights = lf::estimate_training_memory(model, *optimizer, o);
        compare(lf::estimate_training_memory(p.graph, *optimizer, o), with_weights);
        compare(lf::estimate_training_memory(p), with_weights);
        QCOMPARE(with_weights.weights, std::size_t(model.analysis().total_params) * sizeof(float));
        QVERIFY(with_weights.activations > 0 && with_weights.optimizer_state > 0);
    }

    void optimizer_and_batch_come_from_the_project() {
        lf::Project p = lf::load_project(templates_dir() + "fashion_cnn.lfproj");
        p.training.optimizer = {"SGD", {}};
        const lf::MemoryBreakdown sgd = lf::estimate_training_memory(p);
        QCOMPARE(sgd.optimizer_state, std::size_t(0));
        p.training.optimizer = {"SGD", {{"momentum", 0.9}}};
        QCOMPARE(lf::estimate_training_memory(p).optimizer_state, sgd.weights);
        p.training.batch_size *= 2;
        QVERIFY(lf::estimate_training_memory(p).activations > sgd.activations);
        p.training.optimizer = {"Adagrad", {}};
        LF_EXPECT_INPUT_ERROR(lf::estimate_training_memory(p), "Adagrad");
        p.training.optimizer = {"Adam", {}};
        p.graph.edges.clear();
        LF_EXPECT_INPUT_ERROR(lf::estimate_training_memory(p), "not valid");
    }

    void shapes_only_model_holds_no_weights() {
        const lf::Graph g = mlp_builder().graph;
        const lf::MemoryBreakdown before = lf::memory_in_use();
        const lf::Model shapes = lf::Model::shapes_only(g);
        QCOMPARE(lf::memory_in_use().total(), before.total());
        QCOMPARE(shapes.weights().size(), std::size_t(1));
        const lf::Model full(g);
        QCOMPARE(shapes.weight_refs().size(), full.weight_refs().size());
        for (std::size_t i = 0; i < full.weight_refs().size(); ++i) {
            QCOMPARE(shapes.weight_refs()[i].size, full.weight_refs()[i].size);
            QCOMPARE(shapes.weight_refs()[i].offset, std::size_t(0));  // all on the placeholder
        }
        QCOMPARE(shapes.trainable_size(), full.trainable_size());
    }

    // 2^28 weights: 1 GiB of weights and 1 GiB of gradients if the estimate built a Model.
    void a_model_too_large_to_hold_is_estimated_without_allocating_it() {
        GraphBuilder b;
        const auto in = b.add("Input", {{"shape", lf::IntList{16384}}});
        b.add("Dense", {{"units", std::int64_t(16384)}, {"use_bias", false}}, {in});
        lf::Project p;
        p.graph = b.graph;
        p.training.batch_size = 2;
        const long before = peak_rss_kb();
        const lf::MemoryBreakdown m = lf::estimate_training_memory(p);
        const long grown_mb = (peak_rss_kb() - before) / 1024;
        QCOMPARE(m.weights, std::size_t(1) << 30);
        QCOMPARE(m.optimizer_state, std::size_t(2) << 30);  // Adam's m and v
        QVERIFY2(grown_mb < 256, qPrintable(QString("peak RSS grew by %1 MB").arg(grown_mb)));
    }
};

QTEST_MAIN(TestMemoryEstimate)
#include "test_memory_estimate.moc"
