// The tf.keras export's model.keras: read back with zipfile + h5py (read_keras_archive.py) it has
// Keras 3's layout, and imported again it gives the same graph and the same weights bit for bit.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <random>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "graph_builder.h"
#include "layerforge/export/export.h"
#include "layerforge/graph/model.h"
#include "layerforge/import/import.h"

namespace {

// Every layer type whose Keras class imports back as the same type, in one valid graph.
lf::Graph every_layer() {
    using lf::IntList;
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{10, 10, 3}}});
    auto pad = b.add("ZeroPadding2D", {{"padding", IntList{1, 1, 2, 2}}}, {in});  // (12, 14, 3)
    auto conv = b.add("Conv2D", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{3, 3}}, {"activation", std::string("relu")}},
                      {pad});  // (10, 12, 4)
    auto bn = b.add("BatchNormalization", {{"momentum", 0.9}, {"epsilon", 1e-4}}, {conv});
    auto relu6 = b.add("ReLU", {{"max_value", 6.0}, {"threshold", 0.1}}, {bn});
    auto dw = b.add("DepthwiseConv2D", {{"kernel_size", IntList{3, 3}}, {"padding", std::string("same")},
                                        {"depth_multiplier", std::int64_t(2)}, {"dilation_rate", IntList{2, 2}}},
                    {relu6});  // (10, 12, 8)
    auto pool = b.add("MaxPool2D", {{"pool_size", IntList{2, 2}}}, {dw});  // (5, 6, 8)
    auto pw = b.add("Conv2D", {{"filters", std::int64_t(8)}, {"kernel_size", IntList{1, 1}}, {"use_bias", false}}, {pool});
    auto add = b.add("Add", {}, {pool, pw});
    auto cat = b.add("Concatenate", {{"axis", std::int64_t(-1)}}, {add, pool});  // (5, 6, 16)
    auto leaky = b.add("LeakyReLU", {{"alpha", 0.1}}, {cat});
    auto avg = b.add("AveragePooling2D", {{"pool_size", IntList{2, 2}}, {"strides", IntList{1, 1}}, {"padding", std::string("same")}},
                     {leaky});
    auto act = b.add("Activation", {{"activation", std::string("tanh")}}, {avg});
    auto up = b.add("Conv2DTranspose", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{2, 2}}, {"strides", IntList{2, 2}}},
                    {act});  // (10, 12, 4)
    auto gmax = b.add("GlobalMaxPooling2D", {}, {up});
    auto fc = b.add("Dense", {{"units", std::int64_t(6)}, {"activation", std::string("elu")}}, {gmax});
    auto rs = b.add("Reshape", {{"target_shape", IntList{2, 3}}}, {fc});
    auto flat = b.add("Flatten", {}, {rs});
    auto drop = b.add("Dropout", {{"rate", 0.2}}, {flat});
    b.add("Softmax", {}, {drop});
    return b.graph;
}

// Distinct values in every weight, so a swap of two weights shows.
void randomize(lf::Model& m) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.1f, 1.0f);
    for (float& w : m.weights()) w = u(rng);
}

using EdgeKey = std::tuple<std::string, std::string, int>;

std::set<EdgeKey> edges_by_name(const lf::Graph& g) {
    std::set<EdgeKey> out;
    for (const lf::Edge& e : g.edges) out.insert({g.find(e.from.node)->name, g.find(e.to.node)->name, e.to.port});
    return out;
}

}  // namespace

class TestKerasExportRoundtrip : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    lf::Graph graph_ = every_layer();
    std::unique_ptr<lf::Model> model_;

    std::string archive() const { return dir_.filePath("out/model.keras").toStdString(); }

private slots:
    void initTestCase() {
        model_ = std::make_unique<lf::Model>(graph_);
        randomize(*model_);
        const auto written = lf::export_model(*model_, {}, {.format = lf::ExportFormat::Keras}, dir_.filePath("out").toStdString());
        QCOMPARE(written.size(), std::size_t(3));
        QCOMPARE(written[2], archive());
    }

    void importedBackIsTheSameGraph() {
        const lf::ImportedModel im = lf::import_model_file(archive());
        const lf::Model back = lf::Model::shapes_only(im.graph);
        QCOMPARE(im.graph.nodes.size(), graph_.nodes.size());
        for (const lf::Node& n : graph_.nodes) {
            const lf::Node* m = im.graph.find(n.name);
            QVERIFY2(m, n.name.c_str());
            QCOMPARE(m->type, n.type);
            QVERIFY2(back.info(m->id).params == model_->info(n.id).params, n.name.c_str());  // resolved: defaults filled
        }
        QCOMPARE(edges_by_name(im.graph), edges_by_name(graph_));
    }

    void importedBackHasTheSameWeights() {
        const lf::ImportedModel im = lf::import_model_file(archive());
        QCOMPARE(im.weights.size(), model_->weight_refs().size());
        for (const lf::WeightRef& r : model_->weight_refs()) {
            const auto it = im.weights.find(r.name);
            QVERIFY2(it != im.weights.end(), r.name.c_str());
            const std::vector<float> want(model_->weights().begin() + std::ptrdiff_t(r.offset),
                                          model_->weights().begin() + std::ptrdiff_t(r.offset + r.size));
            QVERIFY2(it->second.values == want, r.name.c_str());
        }
    }

    // What keras.models.load_model reads, seen through Python's zipfile and h5py.
    void pythonSeesKeras3sLayout() {
        const QString out = dir_.filePath("read.json");
        QProcess p;
        p.start("/usr/bin/python3", {qEnvironmentVariable("LF_SOURCE_DIR") + "/tests/import/read_keras_archive.py",
                                     QString::fromStdString(archive()), out});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        std::ifstream in(out.toStdString());
        const auto j = nlohmann::json::parse(in);
        QCOMPARE(j["names"], nlohmann::json({"metadata.json", "config.json", "model.weights.h5"}));
        QCOMPARE(j["config"]["class_name"], "Functional");
        QVERIFY(j["metadata"]["keras_version"].get<std::string>().starts_with("3."));
        const auto& layers = j["config"]["config"]["layers"];
        QCOMPARE(layers[0]["class_name"], "InputLayer");
        QCOMPARE(layers[0]["config"]["batch_shape"], nlohmann::json({nullptr, 10, 10, 3}));
        auto layer = [&](const char* name) {
            for (const auto& l : layers)
                if (l["name"] == name) return l;
            return nlohmann::json();
        };
        QCOMPARE(layer("maxpool2d_6")["class_name"], "MaxPooling2D");  // the engine's MaxPool2D under Keras' class name
        QCOMPARE(layer("add_8")["inbound_nodes"][0]["args"][0].size(), std::size_t(2));  // Add's list of two tensors
        // Variables by snake_case class, numbered per class, trainable first.
        const auto& ds = j["datasets"];
        auto values = [&](const char* name) {
            const lf::WeightRef* r = model_->find_weight(name);
            return std::vector<double>(model_->weights().begin() + std::ptrdiff_t(r->offset),
                                       model_->weights().begin() + std::ptrdiff_t(r->offset + r->size));
        };
        QCOMPARE(ds["layers/conv2d/vars/0"]["shape"], nlohmann::json({3, 3, 3, 4}));
        QCOMPARE(ds["layers/conv2d/vars/0"]["dtype"], "float32");
        QCOMPARE(ds["layers/conv2d/vars/1"]["values"].get<std::vector<double>>(), values("conv2d_2/bias"));
        QCOMPARE(ds["layers/conv2d_1/vars/0"]["values"].get<std::vector<double>>(), values("conv2d_7/kernel"));
        QVERIFY(!ds.contains("layers/conv2d_1/vars/1"));  // use_bias false
        QCOMPARE(ds["layers/batch_normalization/vars/3"]["values"].get<std::vector<double>>(),
                 values("batchnormalization_3/moving_variance"));
        QCOMPARE(ds["layers/depthwise_conv2d/vars/0"]["shape"], nlohmann::json({3, 3, 4, 2}));
        QCOMPARE(ds["layers/conv2d_transpose/vars/0"]["shape"], nlohmann::json({2, 2, 4, 16}));
        QCOMPARE(ds["layers/dense/vars/0"]["shape"], nlohmann::json({4, 6}));
        std::set<std::string> groups(j["groups"].begin(), j["groups"].end());
        QVERIFY(groups.count("vars") && groups.count("layers/re_lu/vars") && groups.count("layers/input_layer/vars"));
    }

    void sigmoidAndTanhComeBackAsActivations() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4}}});
        auto s = b.add("Sigmoid", {}, {in});
        b.add("Tanh", {}, {s});
        lf::Model m(b.graph);
        QTemporaryDir d;
        lf::export_model(m, {}, {.format = lf::ExportFormat::Keras}, d.path().toStdString());
        const lf::ImportedModel im = lf::import_model_file(d.filePath("model.keras").toStdString());
        QCOMPARE(im.graph.find("sigmoid_1")->type, std::string("Activation"));
        QCOMPARE(std::get<std::string>(im.graph.find("sigmoid_1")->params.at("activation")), std::string("sigmoid"));
        QCOMPARE(std::get<std::string>(im.graph.find("tanh_2")->params.at("activation")), std::string("tanh"));
    }
};

QTEST_APPLESS_MAIN(TestKerasExportRoundtrip)
#include "test_keras_export_roundtrip.moc"
