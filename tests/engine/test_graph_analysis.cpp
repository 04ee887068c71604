// Graph validation: one test per diagnostic, plus shape inference, parameter and FLOP counts.
#include <QtTest>

#include <random>

#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/graph/model.h"

using lf::IntList;

namespace {

// The first error on `node`, or "" when it has none.
QString error_on(const lf::Analysis& a, const std::string& node, const std::string& field = "*") {
    for (const auto& d : a.for_node(node))
        if (d.severity == lf::Severity::Error && (field == "*" || d.field == field))
            return QString::fromStdString(d.message);
    return {};
}

GraphBuilder mlp() { return mlp_builder(); }

// Field by field: analyze() and reanalyze() must agree on everything a view can show.
void compare_analyses(const lf::Analysis& got, const lf::Analysis& want, const std::string& step) {
    auto where = [&](const std::string& what) { return (step + ": " + what).c_str(); };
    QVERIFY2(got.diagnostics.size() == want.diagnostics.size(), where("diagnostic count"));
    for (std::size_t i = 0; i < got.diagnostics.size(); ++i) {
        const auto &x = got.diagnostics[i], &y = want.diagnostics[i];
        QVERIFY2(x.node == y.node && x.field == y.field && x.message == y.message && x.severity == y.severity,
                 where("diagnostic " + std::to_string(i) + ": " + x.message + " vs " + y.message));
    }
    QVERIFY2(got.inferred_begin == want.inferred_begin && got.inferred_end == want.inferred_end, where("segments"));
    QVERIFY2(got.order == want.order && got.inputs == want.inputs && got.outputs == want.outputs, where("order"));
    QVERIFY2(got.total_params == want.total_params && got.trainable_params == want.trainable_params &&
                 got.flops == want.flops, where("totals"));
    QVERIFY2(got.nodes.size() == want.nodes.size(), where("node count"));
    for (const auto& [id, y] : want.nodes) {
        const lf::NodeInfo& x = got.nodes.at(id);
        QVERIFY2(x.spec == y.spec && x.params == y.params && x.inputs == y.inputs && x.shaped == y.shaped &&
                     x.layer.output == y.layer.output && x.layer.flops == y.layer.flops &&
                     x.param_count == y.param_count && x.layer.weights.size() == y.layer.weights.size(),
                 where("node " + id));
    }
}

// Input -> 60 random layers, each fed by one or two earlier ones; some joins do not fit.
GraphBuilder random_graph(std::mt19937& rng) {
    GraphBuilder b;
    std::vector<std::string> ids{b.add("Input", {{"shape", IntList{4}}})};
    auto pick = [&] { return ids[std::uniform_int_distribution<std::size_t>(0, ids.size() - 1)(rng)]; };
    for (int i = 0; i < 60; ++i) {
        switch (rng() % 5) {
        case 0: ids.push_back(b.add("Dense", {{"units", std::int64_t(1 + rng() % 4)}}, {pick()})); break;
        case 1: ids.push_back(b.add("ReLU", {}, {pick()})); break;
        case 2: ids.push_back(b.add("Dropout", {{"rate", 0.5}}, {pick()})); break;
        case 3: ids.push_back(b.add("Add", {}, {pick(), pick()})); break;
        default: ids.push_back(b.add("Concatenate", {}, {pick(), pick()})); break;
        }
    }
    return b;
}

// A random parameter edit, sometimes an invalid one.
void random_edit(std::mt19937& rng, lf::Node& n) {
    if (n.type == "Input") n.params["shape"] = IntList{std::int64_t(1 + rng() % 4)};
    else if (n.type == "Dense") n.params["units"] = std::int64_t(rng() % 5);  // 0 is invalid
    else if (n.type == "Dropout") n.params["rate"] = 0.1 * double(rng() % 12);  // >= 1 is invalid
    else n.name += "x";
}

}  // namespace

class TestGraphAnalysis : public QObject {
    Q_OBJECT
private slots:
    void mlp_shapes_params_and_flops() {
        auto a = lf::analyze(mlp().graph);
        QVERIFY2(a.ok(), a.error_report().c_str());
        QCOMPARE(a.nodes["flatten_1"].layer.output, lf::Shape({784}));
        QCOMPARE(a.nodes["dense_2"].layer.output, lf::Shape({100}));
        QCOMPARE(a.nodes["dense_2"].param_count, std::int64_t(78500));
        QCOMPARE(a.nodes["dense_3"].param_count, std::int64_t(1010));
        QCOMPARE(a.total_params, std::int64_t(79510));
        QCOMPARE(a.flops, std::int64_t(2 * 784 * 100 + 2 * 100 * 10 + 4 * 10));
        QCOMPARE(a.order.front(), std::string("input_0"));
        QCOMPARE(a.outputs, std::vector<std::string>{"softmax_4"});
    }
    void reanalyze_equals_analyze_on_random_edits() {
        std::mt19937 rng(7);
        int partial = 0;
        for (int graph = 0; graph < 20; ++graph) {
            GraphBuilder b = random_graph(rng);
            lf::Analysis a = lf::analyze(b.graph);
            for (int edit = 0; edit < 30; ++edit) {
                std::vector<std::string> edited;
                for (int k = 0; k < 1 + int(rng() % 2); ++k) {
                    lf::Node& n = b.graph.nodes[rng() % b.graph.nodes.size()];
                    random_edit(rng, n);
                    edited.push_back(n.id);
                }
                auto changed = lf::reanalyze(b.graph, a, edited);
                partial += changed.size() < b.graph.nodes.size();
                compare_analyses(a, lf::analyze(b.graph), "graph " + std::to_string(graph) + " edit " + std::to_string(edit));
                if (QTest::currentTestFailed()) return;
            }
        }
        QVERIFY(partial > 300);  // most edits re-infer only part of the graph
    }
    void reanalyze_reports_changed_nodes() {
        GraphBuilder b = mlp();
        lf::Analysis a = lf::analyze(b.graph);
        b.graph.find("dense_3")->params["units"] = std::int64_t(5);
        auto changed = lf::reanalyze(b.graph, a, {"dense_3"});
        QCOMPARE(changed, (std::vector<std::string>{"dense_3", "softmax_4"}));
        QCOMPARE(a.total_params, std::int64_t(78500 + 505));
        b.graph.find("dense_2")->params["activation"] = std::string("tanh");
        QCOMPARE(lf::reanalyze(b.graph, a, {"dense_2"}), std::vector<std::string>{});  // same shapes and counts
        b.graph.find("dense_2")->params["units"] = std::int64_t(0);
        QCOMPARE(lf::reanalyze(b.graph, a, {"dense_2"}).size(), b.graph.nodes.size());  // a problem: from scratch
        QVERIFY(error_on(a, "dense_2", "units").contains("must be >= 1"));
    }
    void unknown_type() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense3D", {}, {in});
        QVERIFY(error_on(lf::analyze(b.graph), "dense3d_1", "type").contains("unknown layer type 'Dense3D'"));
    }
    void bad_parameter_value() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense", {{"units", std::int64_t(0)}}, {in});
        QVERIFY(error_on(lf::analyze(b.graph), "dense_1", "units").contains("must be >= 1 and <= 16777216, got 0"));
    }
    void bad_parameter_kind_and_choice() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense", {{"units", std::string("ten")}, {"activation", std::string("relux")}}, {in});
        auto a = lf::analyze(b.graph);
        QVERIFY(error_on(a, "dense_1", "units").contains("expects an integer"));
        QVERIFY(error_on(a, "dense_1", "activation").contains("must be one of linear, relu"));
    }
    void unknown_parameter() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense", {{"units", std::int64_t(3)}, {"unitz", std::int64_t(3)}}, {in});
        QVERIFY(error_on(lf::analyze(b.graph), "dense_1", "unitz").contains("is not a parameter of Dense"));
    }
    void dangling_input() {
        GraphBuilder b;
        b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense", {{"units", std::int64_t(3)}});
        QVERIFY(error_on(lf::analyze(b.graph), "dense_1", "inputs").contains("needs an input"));
    }
    void merge_needs_two_inputs() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Add", {}, {in});
        QVERIFY(error_on(lf::analyze(b.graph), "add_1", "inputs").contains("needs 2 inputs"));
    }
    void port_connected_twice_and_out_of_range() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto d = b.add("Dense", {{"units", std::int64_t(3)}}, {in});
        b.graph.edges.push_back({{in, 0}, {d, 0}});
        b.graph.edges.push_back({{in, 0}, {d, 1}});
        auto a = lf::analyze(b.graph);
        QVERIFY(!a.ok());
        bool twice = false, range = false;
        for (const auto& diag : a.for_node(d)) {
            twice = twice || QString::fromStdString(diag.message).contains("connected twice");
            range = range || QString::fromStdString(diag.message).contains("has 1 input port(s); edge uses port 1");
        }
        QVERIFY(twice && range);
    }
    void edge_to_missing_node() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.graph.edges.push_back({{in, 0}, {"ghost", 0}});
        QVERIFY(error_on(lf::analyze(b.graph), in).contains("missing node"));
    }
    void cycle() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto a1 = b.add("Add", {}, {in});
        auto d = b.add("Dense", {{"units", std::int64_t(4)}}, {a1});
        b.graph.edges.push_back({{d, 0}, {a1, 1}});
        auto a = lf::analyze(b.graph);
        QVERIFY(error_on(a, a1, "inputs").contains("part of a cycle"));
        QVERIFY(error_on(a, d, "inputs").contains("part of a cycle"));
        QVERIFY(error_on(a, in).isEmpty());
    }
    void shape_mismatch_names_both_shapes() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{7, 7, 64}}});
        b.add("Dense", {{"units", std::int64_t(10)}}, {in});
        QCOMPARE(error_on(lf::analyze(b.graph), "dense_1"),
                 QString("Dense expects 2-D input, got (?, 7, 7, 64): add Flatten"));
        GraphBuilder m;
        auto i2 = m.add("Input", {{"shape", IntList{4}}});
        auto x = m.add("Dense", {{"units", std::int64_t(3)}}, {i2});
        m.add("Add", {}, {i2, x});
        QVERIFY(error_on(lf::analyze(m.graph), "add_2").contains("got (?, 4) and (?, 3)"));
    }
    void errors_do_not_cascade_downstream() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{7, 7}}});
        auto d = b.add("Dense", {{"units", std::int64_t(10)}}, {in});
        auto d2 = b.add("Dense", {{"units", std::int64_t(10)}}, {d});
        auto a = lf::analyze(b.graph);
        QVERIFY(!error_on(a, d).isEmpty());
        QVERIFY(error_on(a, d2).isEmpty());
    }
    void reshape_and_concatenate_shapes() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4, 4, 2}}});
        auto r = b.add("Reshape", {{"target_shape", IntList{-1, 8}}}, {in});
        auto c = b.add("Concatenate", {{"axis", std::int64_t(1)}}, {r, r});
        auto bad = b.add("Reshape", {{"target_shape", IntList{5, 5}}}, {in});
        auto a = lf::analyze(b.graph);
        QCOMPARE(a.nodes[r].layer.output, lf::Shape({4, 8}));
        QCOMPARE(a.nodes[c].layer.output, lf::Shape({8, 8}));
        QVERIFY(error_on(a, bad).contains("cannot reshape (?, 4, 4, 2) (32 values) into (?, 5, 5) (25 values)"));
    }
    void no_input_layer() {
        GraphBuilder b;
        b.add("Dense", {{"units", std::int64_t(3)}});
        QVERIFY(error_on(lf::analyze(b.graph), "").contains("no Input layer"));
    }
    void model_rejects_invalid_graph_and_several_outputs() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        b.add("Dense", {{"units", std::int64_t(0)}}, {in});
        try {
            lf::Model m(b.graph);
            QFAIL("no error");
        } catch (const lf::Error& e) {
            QCOMPARE(e.kind(), lf::ErrorKind::Input);
            QVERIFY(QString(e.what()).contains("node 'dense_1': units: must be >= 1"));
        }
        GraphBuilder two;
        auto i2 = two.add("Input", {{"shape", IntList{4}}});
        two.add("Dense", {{"units", std::int64_t(2)}}, {i2});
        two.add("Dense", {{"units", std::int64_t(2)}}, {i2});
        lf::Model m(two.graph);
        QVERIFY_THROWS_EXCEPTION(lf::Error, m.output_node());
    }
    void duplicate_layer_names_rejected_by_model() {
        auto b = mlp();
        b.graph.nodes[3].name = b.graph.nodes[2].name;
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::Model(b.graph));
    }
    void glorot_init_is_seeded_and_bounded() {
        lf::Model a(mlp().graph), b(mlp().graph);
        a.init_weights(5);
        b.init_weights(5);
        QCOMPARE(a.weights(), b.weights());
        const lf::WeightRef* k = a.find_weight("dense_2/kernel");
        const lf::WeightRef* bias = a.find_weight("dense_2/bias");
        QVERIFY(k && bias);
        float limit = std::sqrt(6.f / (784 + 100));
        float maxabs = 0;
        for (std::size_t i = 0; i < k->size; ++i) maxabs = std::max(maxabs, std::abs(a.weights()[k->offset + i]));
        QVERIFY(maxabs <= limit && maxabs > 0.95f * limit);
        for (std::size_t i = 0; i < bias->size; ++i) QCOMPARE(a.weights()[bias->offset + i], 0.f);
    }
};

QTEST_APPLESS_MAIN(TestGraphAnalysis)
#include "test_graph_analysis.moc"
