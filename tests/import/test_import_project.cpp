// What every import shares: the choice of reader by extension, the check of the converted weights
// against the graph, and writing the project with its weights file as one set.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "graph_builder.h"
#include "layerforge/core/file_io.h"
#include "layerforge/graph/model.h"
#include "layerforge/import/import.h"
#include "layerforge/project/project.h"
#include "layerforge/run/session.h"
#include "layerforge/store/weights_file.h"
#include "lf_test_util.h"

namespace {

// Input(4) -> Dense(3) with its two weights filled with recognisable values.
lf::ImportedModel small_model() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{4}}});
    b.add("Dense", {{"units", std::int64_t{3}}}, {in});
    lf::ImportedModel m;
    m.graph = b.graph;
    lf::ImportedTensor kernel{{4, 3}, {}}, bias{{3}, {0.5f, -0.5f, 2.0f}};
    for (int i = 0; i < 12; ++i) kernel.values.push_back(0.25f * float(i));
    m.weights["dense_1/kernel"] = kernel;
    m.weights["dense_1/bias"] = bias;
    m.source = "test";
    return m;
}

}  // namespace

class TestImportProject : public QObject {
    Q_OBJECT
private slots:
    void unknownExtensionsAreRefusedNamingTheFile() {
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::import_model_file("/tmp/model.pt"), "/tmp/model.pt",
                                "not a model file");
    }

    void weightsLandInTheModelsOrder() {
        const lf::ImportedModel m = small_model();
        lf::Model model(m.graph);
        lf::decode_weights(model, lf::imported_weights_bytes(m, "small.onnx"), "bytes");
        const lf::WeightRef* k = model.find_weight("dense_1/kernel");
        const lf::WeightRef* b = model.find_weight("dense_1/bias");
        QVERIFY(k && b);
        for (int i = 0; i < 12; ++i) QCOMPARE(model.weights()[k->offset + std::size_t(i)], 0.25f * float(i));
        QCOMPARE(model.weights()[b->offset + 2], 2.0f);
    }

    void everyMismatchIsNamedAtOnce() {
        lf::ImportedModel m = small_model();
        m.weights["dense_1/kernel"].shape = {3, 4};
        m.weights.erase("dense_1/bias");
        m.weights["extra/kernel"] = {{1}, {1.0f}};
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::imported_weights_bytes(m, "bad.onnx"), "bad.onnx",
                                "dense_1/kernel: (3, 4) in the file, (4, 3) in the model", "dense_1/bias: not in the file",
                                "extra/kernel: in the file, not in the model");
    }

    void projectAndWeightsAreWrittenTogether() {
        QTemporaryDir dir;
        const std::string project = dir.filePath("net.lfproj").toStdString();
        lf::write_imported_project(small_model(), project);
        const lf::Project p = lf::load_project(project);
        QCOMPARE(p.name, std::string("net"));
        QCOMPARE(p.graph, small_model().graph);
        lf::Model model(p.graph);
        lf::load_weights(model, lf::default_weights_path(project));
        QCOMPARE(model.weights()[model.find_weight("dense_1/bias")->offset], 0.5f);
        // The same weights are the project's initial weights, where every new run starts.
        QCOMPARE(p.training.initial_weights, std::string("net.pretrained.safetensors"));
        const std::vector<std::string> files = lf::imported_project_files(project);
        QCOMPARE(files.size(), std::size_t(3));
        QCOMPARE(files[2], dir.filePath("net.pretrained.safetensors").toStdString());
        QCOMPARE(lf::read_file(files[2], "pretrained"), lf::read_file(files[1], "weights"));
    }

    void nothingIsWrittenWhenTheWeightsDoNotMatch() {
        QTemporaryDir dir;
        lf::ImportedModel m = small_model();
        m.weights.erase("dense_1/kernel");
        const std::string project = dir.filePath("net.lfproj").toStdString();
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::write_imported_project(m, project));
        QVERIFY(std::filesystem::is_empty(dir.path().toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestImportProject)
#include "test_import_project.moc"
