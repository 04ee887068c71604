// analyze_network(): the whole graph's errors, warnings and per-layer costs, from shape
// inference only, quick for any size.
#include <QtTest>

#include <chrono>

#include "graph_builder.h"
#include "layerforge/graph/network_report.h"

using lf::IntList;

namespace {

bool has(const std::vector<lf::Diagnostic>& list, const std::string& node, const std::string& words) {
    for (const lf::Diagnostic& d : list)
        if (d.node == node && d.message.find(words) != std::string::npos) return true;
    return false;
}

const lf::LayerCost& layer(const lf::NetworkReport& r, const std::string& node) {
    for (const lf::LayerCost& l : r.layers)
        if (l.node == node) return l;
    throw std::runtime_error("no layer " + node);
}

lf::ReportOptions options(std::int64_t batch, std::string loss = "SparseCategoricalCrossentropy", bool logits = false) {
    return {.batch = batch, .loss = std::move(loss), .from_logits = logits};
}

}  // namespace

class TestNetworkReport : public QObject {
    Q_OBJECT
private slots:
    void costs_of_the_tutorial_mlp() {
        const lf::NetworkReport r = lf::analyze_network(mlp_builder().graph, options(50));
        QVERIFY(r.errors.empty());
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.layers.size(), std::size_t(5));
        QCOMPARE(r.layers.front().node, std::string("input_0"));  // topological order
        const lf::LayerCost& hidden = layer(r, "dense_2");
        QCOMPARE(hidden.params, std::int64_t(784 * 100 + 100));
        QCOMPARE(hidden.flops, std::int64_t(2 * 784 * 100));
        QCOMPARE(hidden.activation_bytes, std::int64_t(50 * 100 * 4));
        QCOMPARE(hidden.weight_bytes, std::int64_t(78500 * 4));
        QCOMPARE(hidden.training_bytes, std::int64_t(2 * 50 * 100 * 4 + 2 * 78500 * 4));
        QCOMPARE(layer(r, "flatten_1").activation_bytes, std::int64_t(0));  // a view of its input
        QCOMPARE(layer(r, "input_0").activation_bytes, std::int64_t(50 * 784 * 4));
        QCOMPARE(layer(r, "input_0").training_bytes, std::int64_t(50 * 784 * 4));  // no gradient of the input
        QCOMPARE(r.total_params, std::int64_t(78500 + 1010));
        QCOMPARE(r.trainable_params, r.total_params);
    }

    void errors_are_the_engines_validation_and_what_training_needs() {
        GraphBuilder b = mlp_builder();
        b.add("Dense", {{"units", std::int64_t(3)}}, {"dense_2"});  // a second, dangling output
        b.add("Dense", {{"units", std::int64_t(0)}});                // invalid and unconnected
        const lf::NetworkReport r = lf::analyze_network(b.graph, options(8));
        QVERIFY(has(r.errors, "dense_6", "must be >= 1"));
        QCOMPARE(r.errors.front().field, std::string("units"));  // the parameter's check comes first
        QVERIFY(has(r.errors, "dense_5", "exactly one output"));
        QVERIFY(has(r.errors, "softmax_4", "exactly one output"));
        QVERIFY(!layer(r, "dense_6").shaped);
        QVERIFY(has(lf::analyze_network(lf::Graph{}, options(8)).errors, "", "no layers"));
    }

    void warns_of_a_dense_after_a_large_flatten_and_huge_activations() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{224, 224, 3}}});
        auto conv = b.add("Conv2D", {{"filters", std::int64_t(64)}, {"kernel_size", IntList{3, 3}},
                                     {"padding", std::string("same")}, {"activation", std::string("relu")}}, {in});
        auto flat = b.add("Flatten", {}, {conv});
        auto dense = b.add("Dense", {{"units", std::int64_t(10)}, {"activation", std::string("softmax")}}, {flat});
        const lf::NetworkReport r = lf::analyze_network(b.graph, options(64));
        QVERIFY(r.errors.empty());
        QVERIFY(has(r.warnings, dense, "Flatten of 3,211,264 features"));
        // 64 x 224 x 224 x 64 floats: 822 MB
        QCOMPARE(layer(r, conv).activation_bytes, std::int64_t(64) * 224 * 224 * 64 * 4);
        QVERIFY(has(r.warnings, conv, "822.1 MB for a batch of 64"));
        QVERIFY(!has(r.warnings, in, "for a batch"));  // 38.5 MB: under the threshold
        (void)flat;
    }

    void warns_when_the_output_does_not_match_the_loss() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto out = b.add("Dense", {{"units", std::int64_t(3)}}, {in});  // logits, no softmax
        QVERIFY(has(lf::analyze_network(b.graph, options(4)).warnings, out, "expects probabilities"));
        QVERIFY(lf::analyze_network(b.graph, options(4, "SparseCategoricalCrossentropy", true)).warnings.empty());
        QVERIFY(lf::analyze_network(b.graph, options(4, "MeanSquaredError")).warnings.empty());
        QVERIFY(has(lf::analyze_network(b.graph, options(4, "BinaryCrossentropy")).warnings, out, "no sigmoid"));
        const lf::NetworkReport twice = lf::analyze_network(mlp_builder().graph, options(4, "CategoricalCrossentropy", true));
        QVERIFY(has(twice.warnings, "softmax_4", "applied twice"));
    }

    void warns_of_redundant_layers_and_skipped_pixels() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{32, 32, 3}}});
        auto conv = b.add("Conv2D", {{"filters", std::int64_t(8)}, {"kernel_size", IntList{2, 2}},
                                     {"strides", IntList{3, 3}}}, {in});
        auto norm = b.add("BatchNormalization", {}, {conv});
        auto relu = b.add("Activation", {{"activation", std::string("relu")}}, {norm});
        auto relu2 = b.add("ReLU", {}, {relu});
        auto pool = b.add("GlobalAveragePooling2D", {}, {relu2});
        auto soft = b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("softmax")}}, {pool});
        b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("softmax")}}, {soft});
        const lf::NetworkReport r = lf::analyze_network(b.graph, options(4));
        QVERIFY(has(r.warnings, conv, "strides larger than the window"));
        QVERIFY(has(r.warnings, conv, "cancelled by the BatchNormalization"));
        QVERIFY(has(r.warnings, relu2, "already applied it"));
        QVERIFY(has(r.warnings, soft, "softmax before the last layer"));
        QVERIFY(!has(r.warnings, norm, ""));
    }

    void huge_designs_are_reported_fast_without_overflow() {
        GraphBuilder b;
        // 0.8 trillion values per image, 1.1 trillion out of the convolution: just within the 2^40
        // values a tensor may have (core/checked.h); its bytes for a batch of 2^24 pass 2^63.
        auto in = b.add("Input", {{"shape", IntList{1 << 19, 1 << 19, 3}}});
        auto conv = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{3, 3}},
                                     {"padding", std::string("same")}}, {in});
        std::string prev = conv;
        for (int i = 0; i < 2000; ++i) prev = b.add("ReLU", {}, {prev});  // a long graph, too
        const auto start = std::chrono::steady_clock::now();
        const lf::NetworkReport r = lf::analyze_network(b.graph, options(1 << 24));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(seconds < 1.0, qPrintable(QString::number(seconds)));
        QCOMPARE(r.layers.size(), std::size_t(2002));
        QCOMPARE(layer(r, conv).activation_bytes, std::numeric_limits<std::int64_t>::max());  // saturated
        QVERIFY(r.training_bytes > 0);
        QVERIFY(has(r.warnings, conv, "TB for a batch of 16,777,216"));
    }
};

QTEST_GUILESS_MAIN(TestNetworkReport)
#include "test_network_report.moc"
