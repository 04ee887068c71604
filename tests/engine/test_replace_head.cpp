// The fine-tuning edits and files: "Freeze up to here" (nodes_up_to), "Replace head" as a graph
// edit that keeps the kept layers' weights, the `trainable` flag through the project file, the
// .npy reader and writer, and the weights a new run starts from.
#include <QtTest>

#include "lf_test_util.h"

#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/core/npy.h"
#include "layerforge/graph/fine_tune.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"
#include "run/initial_weights.h"

namespace {

using lf::IntList;

// Input(8, 8, 3) -> Conv2D -> BatchNormalization -> ReLU (relu_3) -> Conv2D -> Add(relu_3) ->
// Flatten -> Dense(10) (the old head, dense_7); relu_3 and conv2d_4 in group "block".
lf::Graph backbone_with_head() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{8, 8, 3}}});
    auto c = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{3, 3}}, {"padding", std::string("same")}}, {in});
    auto bn = b.add("BatchNormalization", {}, {c});
    auto r = b.add("ReLU", {}, {bn});
    auto c2 = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{1, 1}}}, {r});
    auto add = b.add("Add", {}, {c2, r});
    auto f = b.add("Flatten", {}, {add});
    b.add("Dense", {{"units", std::int64_t(10)}, {"activation", std::string("softmax")}}, {f});
    b.graph.groups.push_back({"block", "Block", {r, c2}, false});
    for (std::size_t i = 0; i < b.graph.nodes.size(); ++i) b.graph.nodes[i].y = 100.0 * double(i);
    return b.graph;
}

std::string temp_path(const QTemporaryDir& dir, const char* name) { return dir.filePath(name).toStdString(); }

}  // namespace

class TestReplaceHead : public QObject {
    Q_OBJECT

private slots:
    void nodesUpToAreTheNodeAndItsAncestors() {
        const lf::Graph g = backbone_with_head();
        QCOMPARE(lf::nodes_up_to(g, "relu_3"),
                 (std::vector<std::string>{"input_0", "conv2d_1", "batchnormalization_2", "relu_3"}));
        QCOMPARE(lf::nodes_up_to(g, "add_5").size(), std::size_t(6));
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::nodes_up_to(g, "nope"));
    }

    void replacingAfterAFeatureMapAddsPoolingAndDense() {
        const lf::Graph g = backbone_with_head();
        const lf::HeadReplacement r = lf::replace_head(g, "add_5", 3);
        QCOMPARE(r.removed, (std::vector<std::string>{"flatten_6", "dense_7"}));
        QCOMPARE(r.added.size(), std::size_t(2));
        const lf::Node* pool = r.graph.find(r.added[0]);
        const lf::Node* dense = r.graph.find(r.added[1]);
        QVERIFY(pool && dense);
        QCOMPARE(pool->type, std::string("GlobalAveragePooling2D"));
        QCOMPARE(dense->type, std::string("Dense"));
        QCOMPARE(std::get<std::int64_t>(dense->params.at("units")), std::int64_t(3));
        QCOMPARE(std::get<std::string>(dense->params.at("activation")), std::string("softmax"));
        QVERIFY(dense->y > pool->y && pool->y > g.find("add_5")->y);  // below the cut
        QCOMPARE(r.graph.inputs_of(pool->id).at(0).from.node, std::string("add_5"));
        QCOMPARE(r.graph.inputs_of(dense->id).at(0).from.node, pool->id);
        for (const std::string& id : {"input_0", "conv2d_1", "batchnormalization_2", "relu_3", "conv2d_4", "add_5"})
            QVERIFY(*r.graph.find(id) == *g.find(id));
        QCOMPARE(r.graph.edges.size(), std::size_t(8));  // 6 kept, 2 new
        QCOMPARE(r.graph.groups, g.groups);               // the block lost none of its members
        const lf::Model m(r.graph);                       // valid, one output of 3 classes
        QCOMPARE(m.info(m.output_node()).layer.output, lf::Shape{3});
    }

    void replacingAfterAVectorAddsOnlyDenseAndTrimsGroups() {
        lf::Graph g = backbone_with_head();
        g.groups[0].nodes = {"relu_3", "flatten_6"};
        const lf::HeadReplacement r = lf::replace_head(lf::replace_head(g, "flatten_6", 5).graph, "flatten_6", 4);
        QCOMPARE(r.added.size(), std::size_t(1));
        QCOMPARE(r.graph.find(r.added[0])->type, std::string("Dense"));
        QCOMPARE(r.added[0], std::string("head"));  // the first replacement's "head" was cut away again
        const lf::HeadReplacement twice = lf::replace_head(r.graph, r.added[0], 2);
        QCOMPARE(twice.graph.find(twice.added[0])->name, std::string("head_2"));  // names stay unique
        QCOMPARE(r.graph.groups.at(0).nodes, (std::vector<std::string>{"relu_3", "flatten_6"}));
        const lf::HeadReplacement cut = lf::replace_head(g, "relu_3", 2);
        QCOMPARE(cut.graph.groups.at(0).nodes, (std::vector<std::string>{"relu_3"}));
    }

    void badReplacementsAreRefused() {
        const lf::Graph g = backbone_with_head();
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::replace_head(g, "missing", 3));
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::replace_head(g, "add_5", 0));
        GraphBuilder seq;  // a (steps, features) output is neither a feature map nor a vector
        auto in = seq.add("Input", {{"shape", IntList{5, 4}}});
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::replace_head(seq.graph, in, 3));
    }

    // The kept layers keep their names, so the weights file of the old graph loads into them;
    // only the new head starts from the initialisers.
    void keptLayersKeepTheirWeights() {
        QTemporaryDir dir;
        lf::Model old(backbone_with_head());
        old.init_weights(1);
        const std::string path = temp_path(dir, "m.weights.safetensors");
        lf::save_weights(old, path);
        lf::Model tuned(lf::replace_head(old.graph(), "add_5", 3).graph);
        tuned.init_weights(2);
        const std::string line = lf::start_from_weights_file(tuned, path, 2);
        QVERIFY2(line.find("starting from the weights in") == 0, line.c_str());
        QVERIFY2(line.find("2 of 10 weights") != std::string::npos, line.c_str());  // head/kernel, head/bias
        for (const lf::WeightRef& w : tuned.weight_refs()) {
            const lf::WeightRef* o = old.find_weight(w.name);
            if (w.node == "head") {
                QVERIFY(!o);
                continue;
            }
            QVERIFY(o);
            QVERIFY(std::equal(tuned.weights().begin() + std::ptrdiff_t(w.offset),
                               tuned.weights().begin() + std::ptrdiff_t(w.offset + w.size),
                               old.weights().begin() + std::ptrdiff_t(o->offset)));
        }
        lf::Model fresh(backbone_with_head());
        // Initial weights the project names but that are gone: an error naming them, never a silent random start.
        LF_EXPECT_INPUT_ERROR(lf::start_from_weights_file(fresh, temp_path(dir, "none.safetensors"), 4), "none.safetensors",
                              "training.initial_weights", "--init random");
    }

    void trainableRoundTripsThroughTheProjectFile() {
        lf::Project p;
        p.name = "ft";
        p.graph = backbone_with_head();
        const std::string plain = lf::serialize_project(p);
        QVERIFY2(plain.find("trainable") == std::string::npos, "an all-trainable project reads as before");
        for (const std::string& id : lf::nodes_up_to(p.graph, "relu_3")) p.graph.find(id)->trainable = false;
        const std::string text = lf::serialize_project(p);
        const lf::Project back = lf::parse_project(text);
        QVERIFY(back == p);
        QVERIFY(!back.graph.find("conv2d_1")->trainable);
        QVERIFY(back.graph.find("dense_7")->trainable);
        QCOMPARE(lf::serialize_project(back), text);
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::parse_project(QString::fromStdString(text)
                                                                  .replace("\"trainable\": false", "\"trainable\": 0")
                                                                  .toStdString()));
    }

    void npyRoundTripsAndRefusesOtherArrays() {
        const std::vector<float> v{1.5f, -2.f, 3.25f, 0.f, 7.f, 8.f};
        const std::string bytes = lf::encode_npy({2, 3}, v.data(), v.size());
        QCOMPARE(bytes.size() % 64, std::size_t(24));  // 64-byte header, 24 bytes of data
        const lf::NpyArray a = lf::decode_npy(bytes, "a.npy");
        QCOMPARE(a.shape, (std::vector<std::int64_t>{2, 3}));
        QCOMPARE(a.data, v);
        const lf::NpyArray one = lf::decode_npy(lf::encode_npy({4}, v.data(), 4), "b.npy");
        QCOMPARE(one.shape, (std::vector<std::int64_t>{4}));
        std::string f8 = bytes;
        f8.replace(f8.find("<f4"), 3, "<f8");
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::decode_npy(f8, "c.npy"));
        std::string fortran = bytes;
        fortran.replace(fortran.find("False"), 5, "True ");
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::decode_npy(fortran, "d.npy"));
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::decode_npy(bytes.substr(0, bytes.size() - 4), "e.npy"));
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::decode_npy("not numpy", "f.npy"));
    }
};

QTEST_GUILESS_MAIN(TestReplaceHead)
#include "test_replace_head.moc"
