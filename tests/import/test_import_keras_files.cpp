// Keras model files (.keras and legacy .h5) written by make_keras_fixtures.py in Keras' own
// layouts: the imported graph, weights equal to the written ones bit for bit, outputs equal to a
// numpy forward pass, and every bad file refused with the file and the layer named.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "device_plan.h"
#include "layerforge/graph/model.h"
#include "layerforge/import/import.h"
#include "layerforge/import/keras_file.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"
#include "lf_test_util.h"

namespace {

std::vector<float> floats(const nlohmann::json& j) {
    std::vector<float> v;
    for (const auto& x : j) v.push_back(float(x.get<double>()));
    return v;
}

// The engine's forward pass (inference mode) over the imported weights.
std::vector<float> predict(const lf::ImportedModel& im, const std::vector<float>& x, std::int64_t batch) {
    lf::Model m(im.graph);
    lf::decode_weights(m, lf::imported_weights_bytes(im, "test"), "test");
    lf::test::DevicePlan plan(m, {.batch = batch, .mode = lf::PlanMode::Infer});
    std::copy(x.begin(), x.end(), plan.input());
    plan.forward();
    return {plan.output(), plan.output() + batch * plan.output_width()};
}

}  // namespace

class TestImportKerasFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    nlohmann::json expected_;

    std::string file(const char* name) const { return dir_.filePath(name).toStdString(); }

    void checkWeightsEqual(const lf::ImportedModel& m, const char* model) {
        const auto& want = expected_[model]["weights"];
        for (const auto& [name, w] : want.items()) {
            const auto it = m.weights.find(name);
            QVERIFY2(it != m.weights.end(), name.c_str());
            QCOMPARE(it->second.shape, w["shape"].get<std::vector<std::int64_t>>());
            QVERIFY2(it->second.values == floats(w["values"]), name.c_str());  // bit for bit
        }
    }

    void checkOutputsMatchNumpy(const lf::ImportedModel& m, const char* model) {
        const auto& e = expected_[model];
        const auto shape = e["input_shape"].get<std::vector<std::int64_t>>();
        const std::vector<float> got = predict(m, floats(e["input"]), shape[0]), want = floats(e["output"]);
        QCOMPARE(got.size(), want.size());
        float largest = 0, worst = 0;
        for (std::size_t i = 0; i < want.size(); ++i) {
            largest = std::max(largest, std::abs(want[i]));
            worst = std::max(worst, std::abs(got[i] - want[i]));
        }
        QVERIFY2(worst <= 1e-4f * std::max(largest, 1.0f), (std::string(model) + ": max diff " + std::to_string(worst)).c_str());
    }

    void checkCnnGraph(const lf::ImportedModel& m) {
        std::vector<std::string> types;
        for (const lf::Node& n : m.graph.nodes) types.push_back(n.type);
        QCOMPARE(types, (std::vector<std::string>{"Input", "Conv2D", "MaxPool2D", "Conv2D", "Flatten", "Dropout", "Dense"}));
        QCOMPARE(m.graph.nodes[1].name, std::string("features"));
        QCOMPARE(std::get<std::string>(m.graph.nodes[1].params.at("padding")), std::string("same"));
        QCOMPARE(std::get<std::string>(m.graph.nodes[6].params.at("activation")), std::string("softmax"));
        QCOMPARE(m.graph.edges.size(), std::size_t(6));
        const bool regularizer_noted = std::any_of(m.conversions.begin(), m.conversions.end(), [](const std::string& s) {
            return s.find("'mixer'") != std::string::npos && s.find("kernel_regularizer ignored") != std::string::npos;
        });
        QVERIFY(regularizer_noted);
    }

    void checkResidualGraph(const lf::ImportedModel& m) {
        const lf::Node* add = m.graph.find("sum");
        QVERIFY(add && add->type == "Add");
        const auto in = m.graph.inputs_of("sum");
        QCOMPARE(in.size(), std::size_t(2));
        QCOMPARE(in[0].from.node, std::string("act"));
        QCOMPARE(in[1].from.node, std::string("proj"));
        // bn2 has center=False: no beta in the file, imported as zeros.
        QCOMPARE(m.weights.at("bn2/beta").values, std::vector<float>(4, 0.0f));
        QCOMPARE(std::get<double>(m.graph.find("bn2")->params.at("epsilon")), 1e-5);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QProcess p;
        p.start("/usr/bin/python3",
                {qEnvironmentVariable("LF_SOURCE_DIR") + "/tests/import/make_keras_fixtures.py", dir_.path()});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        std::ifstream in(file("expected.json"));
        expected_ = nlohmann::json::parse(in);
    }

    void kerasSequentialCnn() {
        const lf::ImportedModel m = lf::import_model_file(file("cnn.keras"));
        checkCnnGraph(m);
        checkWeightsEqual(m, "cnn");
        QCOMPARE(m.weights.size(), std::size_t(6));
        QCOMPARE(m.source, std::string("Keras 3.3.3 .keras"));
        checkOutputsMatchNumpy(m, "cnn");
    }

    void h5SequentialCnn() {
        const lf::ImportedModel m = lf::import_model_file(file("cnn.h5"));
        checkCnnGraph(m);
        checkWeightsEqual(m, "cnn");
        QCOMPARE(m.source, std::string("Keras 2.15.0 .h5"));
        checkOutputsMatchNumpy(m, "cnn");
    }

    void kerasFunctionalResidualWithBatchNorm() {
        const lf::ImportedModel m = lf::import_model_file(file("residual.keras"));
        checkResidualGraph(m);
        checkWeightsEqual(m, "residual");
        checkOutputsMatchNumpy(m, "residual");
    }

    void h5FunctionalResidualWithBatchNorm() {
        const lf::ImportedModel m = lf::import_model_file(file("residual.h5"));
        checkResidualGraph(m);
        checkWeightsEqual(m, "residual");
        checkOutputsMatchNumpy(m, "residual");
    }

    void importedProjectLoadsTheWeights() {
        const std::string project = file("residual.lfproj");
        lf::write_imported_project(lf::import_model_file(file("residual.keras")), project);
        lf::Model model(lf::load_project(project).graph);
        lf::load_weights(model, file("residual.weights.safetensors"));
        const lf::WeightRef* gamma = model.find_weight("bn/gamma");
        QVERIFY(gamma);
        QCOMPARE(model.weights()[gamma->offset], float(expected_["residual"]["weights"]["bn/gamma"]["values"][0].get<double>()));
    }

    void keras_zip_without_weights_is_refused() {
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("no_weights.keras")), "no_weights.keras",
                                "no model.weights.h5");
    }

    void h5_that_is_not_keras_is_refused() {
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("not_keras.h5")), "not_keras.h5",
                                "not a Keras model file");
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("text.h5")), "text.h5", "not an HDF5 file");
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("weights_only.h5")), "weights_only.h5",
                                "only weights");
    }

    void weight_count_mismatch_names_the_layer() {
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("missing_bias.h5")), "missing_bias.h5",
                                "layer 'mixer' (Conv2D)", "holds 1 weights, the layer has 2 (kernel, bias)");
    }

    void weight_shape_mismatch_names_the_layer() {
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file(file("flat_kernel.h5")), "flat_kernel.h5",
                                "layer 'classifier' (Dense)", "(120,) in the file, (24, 5) in the model");
    }

    void a_refused_file_writes_nothing() {
        QTemporaryDir out;
        try {
            lf::write_imported_project(lf::import_model_file(file("missing_bias.h5")), out.filePath("m.lfproj").toStdString());
            QFAIL("the import should have been refused");
        } catch (const lf::Error&) {
        }
        QVERIFY(std::filesystem::is_empty(out.path().toStdString()));
    }

    void damaged_bytes_are_refused() {
        std::ifstream in(file("cnn.keras"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::read_keras_archive(bytes.substr(0, bytes.size() / 2), "half.keras"),
                                "half.keras");
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::read_keras_h5(bytes, "zip.h5"), "zip.h5", "not an HDF5 file");
    }
};

QTEST_APPLESS_MAIN(TestImportKerasFiles)
#include "test_import_keras_files.moc"
