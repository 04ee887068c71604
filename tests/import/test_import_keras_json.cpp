// The Keras model-config import (model.to_json(), a .keras config.json, an .h5 model_config):
// every Layerforge layer under each Keras 2 and Keras 3 spelling, the config fields that change
// what a layer computes, and the refusals that name the layer.
#include <QtTest>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "layerforge/graph/model.h"
#include "layerforge/layers/registry.h"
#include "layerforge/project/keras_import.h"
#include "lf_test_util.h"

namespace {

using Json = nlohmann::json;

// Sequential: InputLayer(shape) -> the layer; returns the config text.
std::string sequential(const Json& input_shape, const std::string& cls, Json config, bool keras3 = true) {
    config["name"] = "probe";
    Json shape = Json::array({nullptr});
    for (const auto& d : input_shape) shape.push_back(d);
    Json input = {{"class_name", "InputLayer"}, {"config", {{keras3 ? "batch_shape" : "batch_input_shape", shape}, {"name", "in"}}}};
    Json layer = {{"class_name", cls}, {"config", config}};
    if (keras3) {
        input["module"] = layer["module"] = "keras.layers";
        input["registered_name"] = layer["registered_name"] = nullptr;
    }
    return Json{{"class_name", "Sequential"}, {"config", {{"name", "s"}, {"layers", {input, layer}}}}}.dump();
}

// The probe layer's node after resolving its parameters (defaults filled).
struct Probe {
    std::string type;
    lf::Params params;
};
Probe probe(const Json& input_shape, const std::string& cls, const Json& config, bool keras3 = true) {
    const lf::Graph g = lf::import_keras_model(sequential(input_shape, cls, config, keras3), "m.json");
    const lf::Model m = lf::Model::shapes_only(g);
    return {g.find("probe")->type, m.info("probe").params};
}

}  // namespace

class TestImportKerasJson : public QObject {
    Q_OBJECT
private slots:
    void everyEngineLayerUnderEachSpelling_data() {
        QTest::addColumn<QString>("cls");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");  // the resolved parameter, as lf::to_string writes it
        const char* img = "[8, 8, 3]";
        struct Row {
            const char *cls, *config, *input, *type, *param, *value;
        };
        const Row rows[] = {
            {"Dense", R"({"units": 7, "activation": "relu", "use_bias": false})", "[5]", "Dense", "use_bias", "false"},
            {"Dense", R"({"units": 7, "activation": {"module": "keras.activations", "class_name": "function", "config": "tanh", "registered_name": "function"}})",
             "[5]", "Dense", "activation", "\"tanh\""},
            {"Conv2D", R"({"filters": 4, "kernel_size": [3, 3], "strides": [2, 2], "padding": "same", "data_format": "channels_last", "groups": 1})",
             img, "Conv2D", "strides", "[2, 2]"},
            {"Convolution2D", R"({"filters": 4, "kernel_size": 3, "dilation_rate": [2, 2]})", img, "Conv2D", "dilation_rate", "[2, 2]"},
            {"DepthwiseConv2D", R"({"kernel_size": [3, 3], "depth_multiplier": 2, "padding": "valid"})", img, "DepthwiseConv2D",
             "depth_multiplier", "2"},
            {"Conv2DTranspose", R"({"filters": 2, "kernel_size": [2, 2], "strides": [2, 2], "output_padding": [1, 1]})", img,
             "Conv2DTranspose", "output_padding", "[1, 1]"},
            {"Conv2DTranspose", R"({"filters": 2, "kernel_size": [2, 2], "output_padding": null})", img, "Conv2DTranspose",
             "output_padding", "[]"},
            {"MaxPooling2D", R"({"pool_size": [2, 2], "strides": null, "padding": "valid"})", img, "MaxPool2D", "strides", "[]"},
            {"MaxPool2D", R"({"pool_size": [3, 3], "strides": [1, 1], "padding": "same"})", img, "MaxPool2D", "padding", "\"same\""},
            {"AveragePooling2D", R"({"pool_size": [2, 2]})", img, "AveragePooling2D", "pool_size", "[2, 2]"},
            {"AvgPool2D", R"({"pool_size": 4})", img, "AveragePooling2D", "pool_size", "[4, 4]"},
            {"GlobalAveragePooling2D", R"({"data_format": "channels_last", "keepdims": false})", img, "GlobalAveragePooling2D", "", ""},
            {"GlobalAvgPool2D", "{}", img, "GlobalAveragePooling2D", "", ""},
            {"GlobalMaxPooling2D", "{}", img, "GlobalMaxPooling2D", "", ""},
            {"GlobalMaxPool2D", "{}", img, "GlobalMaxPooling2D", "", ""},
            {"BatchNormalization", R"({"axis": -1, "momentum": 0.9, "epsilon": 0.0001, "center": true, "scale": true})", img,
             "BatchNormalization", "momentum", "0.9"},
            {"BatchNormalization", R"({"axis": [3], "epsilon": 0.01})", img, "BatchNormalization", "epsilon", "0.01"},
            {"ZeroPadding2D", R"({"padding": 2})", img, "ZeroPadding2D", "padding", "[2, 2, 2, 2]"},
            {"ZeroPadding2D", R"({"padding": [1, 3]})", img, "ZeroPadding2D", "padding", "[1, 1, 3, 3]"},
            {"ZeroPadding2D", R"({"padding": [[1, 2], [3, 4]]})", img, "ZeroPadding2D", "padding", "[1, 2, 3, 4]"},
            {"Activation", R"({"activation": "sigmoid"})", "[5]", "Activation", "activation", "\"sigmoid\""},
            {"Activation", R"({"activation": "gelu"})", "[5]", "Activation", "activation", "\"gelu\""},
            {"Activation", R"({"activation": "hard_silu"})", "[5]", "Activation", "activation", "\"hard_silu\""},
            {"Activation", R"({"activation": "relu6"})", "[5]", "ReLU", "max_value", "6"},
            {"Activation", R"({"activation": "leaky_relu"})", "[5]", "LeakyReLU", "alpha", "0.2"},
            {"ReLU", R"({"max_value": 6.0, "negative_slope": 0.1, "threshold": 0.5})", "[5]", "ReLU", "negative_slope", "0.1"},
            {"ReLU", R"({"max_value": null})", "[5]", "ReLU", "max_value", "0"},
            {"LeakyReLU", R"({"alpha": 0.25})", "[5]", "LeakyReLU", "alpha", "0.25"},
            {"LeakyReLU", R"({"negative_slope": 0.05})", "[5]", "LeakyReLU", "alpha", "0.05"},
            {"Softmax", R"({"axis": -1})", "[5]", "Softmax", "axis", "-1"},
            {"Dropout", R"({"rate": 0.4, "seed": null, "noise_shape": null})", "[5]", "Dropout", "rate", "0.4"},
            {"Flatten", R"({"data_format": "channels_last"})", img, "Flatten", "", ""},
            {"Reshape", R"({"target_shape": [4, -1]})", img, "Reshape", "target_shape", "[4, -1]"},
        };
        int i = 0;
        for (const Row& r : rows)
            QTest::newRow((std::to_string(i++) + " " + r.cls).c_str())
                << r.cls << r.config << r.input << r.type << r.param << r.value;
    }

    void everyEngineLayerUnderEachSpelling() {
        QFETCH(QString, cls);
        QFETCH(QString, config);
        QFETCH(QString, input);
        QFETCH(QString, type);
        QFETCH(QString, param);
        QFETCH(QString, value);
        for (bool keras3 : {true, false}) {
            const Probe p = probe(Json::parse(input.toStdString()), cls.toStdString(), Json::parse(config.toStdString()), keras3);
            QCOMPARE(QString::fromStdString(p.type), type);
            if (!param.isEmpty()) QCOMPARE(QString::fromStdString(lf::to_string(p.params.at(param.toStdString()))), value);
        }
    }

    void everyEngineLayerTypeIsReachable() {
        // The engine's layers with no Keras class of their own come through Activation.
        const std::set<std::string> through_activation = {"Sigmoid", "Tanh", "GELU"};
        const std::set<std::string> covered = {"Input", "Dense", "Conv2D", "DepthwiseConv2D", "Conv2DTranspose", "MaxPool2D",
                                               "AveragePooling2D", "GlobalAveragePooling2D", "GlobalMaxPooling2D",
                                               "BatchNormalization", "ZeroPadding2D", "Activation", "ReLU", "LeakyReLU",
                                               "Softmax", "Dropout", "Flatten", "Reshape", "Add", "Concatenate", "Multiply"};
        for (const lf::LayerSpec& s : lf::LayerRegistry::instance().all())
            QVERIFY2(covered.count(s.type) || through_activation.count(s.type), ("no Keras spelling for " + s.type).c_str());
    }

    void keras3FunctionalWithMergeLayers() {
        auto tensor = [](const char* layer) {
            return Json{{"class_name", "__keras_tensor__"}, {"config", {{"shape", {nullptr, 4}}, {"dtype", "float32"}, {"keras_history", {layer, 0, 0}}}}};
        };
        auto layer = [](const char* cls, const char* name, Json config, Json inbound) {
            config["name"] = name;
            return Json{{"module", "keras.layers"}, {"class_name", cls}, {"config", config}, {"registered_name", nullptr},
                        {"name", name}, {"inbound_nodes", inbound}};
        };
        auto call = [](Json args) { return Json::array({{{"args", args}, {"kwargs", Json::object()}}}); };
        const Json model = {
            {"class_name", "Functional"},
            {"config", {{"name", "f"}, {"layers", {
                layer("InputLayer", "x", {{"batch_shape", {nullptr, 4}}}, Json::array()),
                layer("Dense", "a", {{"units", 4}}, call({tensor("x")})),
                layer("Dense", "b", {{"units", 4}}, call({tensor("x")})),
                layer("Add", "sum", Json::object(), call({{tensor("a"), tensor("b")}})),
                layer("Concatenate", "cat", {{"axis", -1}}, call({{tensor("sum"), tensor("x")}}))}},
             {"input_layers", {{"x", 0, 0}}}, {"output_layers", {{"cat", 0, 0}}}}}};
        const lf::Graph g = lf::import_keras_model(model.dump(), "f.json");
        QCOMPARE(g.inputs_of("sum").size(), std::size_t(2));
        QCOMPARE(g.inputs_of("sum")[1].from.node, std::string("b"));
        QCOMPARE(g.inputs_of("cat")[1].from.node, std::string("x"));
        QCOMPARE(lf::Model::shapes_only(g).info("cat").layer.output.dims, (lf::IntList{8}));
    }

    void multiplyMapsToTheEngineLayer() {
        const std::string model = R"({"class_name": "Functional", "config": {"layers": [
            {"class_name": "InputLayer", "name": "x", "config": {"name": "x", "batch_input_shape": [null, 4]}, "inbound_nodes": []},
            {"class_name": "Dense", "name": "d", "config": {"name": "d", "units": 4}, "inbound_nodes": [[["x", 0, 0, {}]]]},
            {"class_name": "Multiply", "name": "gate", "config": {"name": "gate"}, "inbound_nodes": [[["x", 0, 0, {}], ["d", 0, 0, {}]]]}]}})";
        const lf::Graph g = lf::import_keras_model(model, "m.json");
        QCOMPARE(g.find("gate")->type, std::string("Multiply"));
        QCOMPARE(g.inputs_of("gate").size(), std::size_t(2));
        QCOMPARE(lf::Model::shapes_only(g).info("gate").layer.output.dims, (lf::IntList{4}));
    }

    void refusalsNameTheLayer_data() {
        QTest::addColumn<QString>("cls");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("needle");
        QTest::newRow("channels_first conv") << "Conv2D" << R"({"filters": 2, "kernel_size": 3, "data_format": "channels_first"})"
                                             << "[8, 8, 3]" << "data_format 'channels_first' is not supported";
        QTest::newRow("channels_first pool") << "MaxPooling2D" << R"({"data_format": "channels_first"})" << "[8, 8, 3]"
                                             << "data_format 'channels_first'";
        QTest::newRow("channels_first flatten") << "Flatten" << R"({"data_format": "channels_first"})" << "[8, 8, 3]"
                                                << "data_format 'channels_first'";
        QTest::newRow("groups") << "Conv2D" << R"({"filters": 4, "kernel_size": 3, "groups": 2})" << "[8, 8, 4]"
                                << "groups 2 is not supported";
        QTest::newRow("causal") << "Conv2D" << R"({"filters": 4, "kernel_size": 3, "padding": "causal"})" << "[8, 8, 4]"
                                << "padding 'causal' is not supported";
        QTest::newRow("bn axis") << "BatchNormalization" << R"({"axis": 1})" << "[8, 8, 3]"
                                 << "BatchNormalization over axis 1 is not supported";
        QTest::newRow("keepdims") << "GlobalAveragePooling2D" << R"({"keepdims": true})" << "[8, 8, 3]" << "keepdims=True";
        QTest::newRow("activation") << "Dense" << R"({"units": 2, "activation": "softplus"})" << "[4]"
                                    << "activation 'softplus' is not supported";
        QTest::newRow("hard_sigmoid") << "Activation" << R"({"activation": "hard_sigmoid"})" << "[4]"
                                      << "activation 'hard_sigmoid' is ambiguous (Keras 2: clip(0.2 x + 0.5, 0, 1)";
        QTest::newRow("unknown class") << "LSTM" << R"({"units": 2})" << "[4]" << "LSTM is not supported by Layerforge yet";
        QTest::newRow("nested model") << "Sequential" << R"({"layers": []})" << "[4]" << "nested model";
    }

    void refusalsNameTheLayer() {
        QFETCH(QString, cls);
        QFETCH(QString, config);
        QFETCH(QString, input);
        QFETCH(QString, needle);
        const std::string word = needle.toStdString();
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input,
                                lf::import_keras_model(sequential(Json::parse(input.toStdString()), cls.toStdString(),
                                                                  Json::parse(config.toStdString())),
                                                       "m.json"),
                                "m.json: layer 'probe'", word.c_str());
    }

    void ignoredFieldsAreNoted() {
        const Json conv = {{"filters", 2}, {"kernel_size", 3},
                           {"kernel_initializer", {{"class_name", "HeNormal"}, {"config", {{"seed", nullptr}}}}},
                           {"kernel_regularizer", {{"class_name", "L2"}, {"config", {{"l2", 0.01}}}}},
                           {"bias_constraint", {{"class_name", "NonNeg"}, {"config", Json::object()}}},
                           {"activity_regularizer", nullptr}};
        const lf::KerasModelConfig c = lf::read_keras_model_config(sequential({8, 8, 3}, "Conv2D", conv), "m.json");
        auto noted = [&](const char* text) {
            return std::any_of(c.notes.begin(), c.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
        };
        QVERIFY(noted("layer 'probe': kernel_regularizer ignored"));
        QVERIFY(noted("layer 'probe': bias_constraint ignored"));
        QVERIFY(!noted("activity_regularizer"));  // null: nothing to ignore
        QVERIFY(noted("initializers in the config ignored"));
    }

    void batchNormWithoutCenterOrScaleRecordsTheAbsentWeights() {
        const lf::KerasModelConfig c =
            lf::read_keras_model_config(sequential({4}, "BatchNormalization", {{"center", false}, {"scale", false}}), "m.json");
        QCOMPARE(c.layers.back().absent_weights, (std::vector<std::string>{"gamma", "beta"}));
        QCOMPARE(c.layers.back().node, std::string("probe"));
    }

    void snakeCaseIsKerasNaming() {
        QCOMPARE(lf::keras_snake_case("Conv2D"), std::string("conv2d"));
        QCOMPARE(lf::keras_snake_case("BatchNormalization"), std::string("batch_normalization"));
        QCOMPARE(lf::keras_snake_case("ReLU"), std::string("re_lu"));
        QCOMPARE(lf::keras_snake_case("DepthwiseConv2D"), std::string("depthwise_conv2d"));
        QCOMPARE(lf::keras_snake_case("GlobalAveragePooling2D"), std::string("global_average_pooling2d"));
        QCOMPARE(lf::keras_snake_case("InputLayer"), std::string("input_layer"));
    }
};

QTEST_APPLESS_MAIN(TestImportKerasJson)
#include "test_import_keras_json.moc"
