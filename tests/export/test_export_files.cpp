// What the export writes besides numbers: the tf.keras script (syntax, declared layers and
// weight shapes), the safetensors export and metadata in every format, the refusals (unmapped
// layer, existing file) and `layerforge-cli export` with weights files and checkpoints.
#include <QtTest>

#include "cli_runner.h"
#include "export_fixtures.h"
#include "layerforge/export/export.h"
#include "layerforge/project/project.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/optimizer.h"

using namespace export_test;
using Json = nlohmann::json;

namespace {

const lf::ExportMetadata kMeta{{"T-shirt", "Trouser", "Pullover", "Dress", "Coat"}, {0.25f, 0.5f, 0.75f},
                               {0.5f, 0.25f, 0.125f}, "unit test"};

QByteArray file_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestExportFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keras_script_declares_the_layers_and_weight_shapes() {
        QTemporaryDir dir;
        lf::Model m(residual());
        randomize(m, 3);
        lf::export_model(m, kMeta, {.format = lf::ExportFormat::Keras}, dir.path().toStdString());
        const QString out = dir.path() + "/keras.json";
        QVERIFY(run_python_jobs(Json::array({{{"kind", "keras"}, {"model", dir.path().toStdString()},
                                               {"output", out.toStdString()}}}),
                                dir.path()));
        const Json info = read_json(out);
        // One tf.keras call per node, named after it, in topological order.
        Json expected = Json::array();
        for (const std::string& id : m.analysis().order) {
            const lf::Node& n = *m.graph().find(id);
            expected.push_back({n.type == "Input" ? "Input" : n.type, n.name});
        }
        QCOMPARE(info["layers"], expected);
        // Every weight declared with its Keras shape, present in the .npz with that shape.
        int declared = 0;
        for (const auto& ref : m.weight_refs()) {
            const std::string layer = ref.name.substr(0, ref.name.find('/'));
            const Json entry = {ref.name, ref.shape.dims};
            const auto& list = info["weight_shapes"][layer];
            QVERIFY2(std::find(list.begin(), list.end(), entry) != list.end(), ref.name.c_str());
            QCOMPARE(info["npz"][ref.name], Json(ref.shape.dims));
            double sum = 0;
            for (std::size_t i = 0; i < ref.size; ++i) sum += m.weights()[ref.offset + i];
            LF_COMPARE_NEAR(info["checksum"][ref.name].get<double>(), sum, 1e-4);
            ++declared;
        }
        QCOMPARE(declared, 14);  // two convolutions (4), two BatchNormalizations (8), the Dense (2)
        QCOMPARE(info["classes"], Json(kMeta.classes));
    }

    // Keras' None where the engine stores "not set": ReLU max_value 0 and an empty output_padding.
    void keras_script_spells_unset_relu_cap_and_output_padding_as_none() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{3, 3, 2}}});
        auto t = b.add("Conv2DTranspose", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{2, 2}}}, {in});
        auto r = b.add("ReLU", {}, {t});
        auto t2 = b.add("Conv2DTranspose", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 3}},
                                            {"strides", lf::IntList{2, 2}}, {"output_padding", lf::IntList{1, 1}}}, {r});
        b.add("ReLU", {{"max_value", 6.0}, {"threshold", 0.5}}, {t2});
        lf::Model m(b.graph);
        QTemporaryDir dir;
        lf::export_model(m, kMeta, {.format = lf::ExportFormat::Keras}, dir.path().toStdString());
        const QByteArray code = file_bytes(dir.path() + "/keras_model.py");
        QVERIFY(code.contains("ReLU(max_value=None, negative_slope=0.0, threshold=0.0, name=\"relu_2\")"));
        QVERIFY(code.contains("ReLU(max_value=6.0, negative_slope=0.0, threshold=0.5, name=\"relu_4\")"));
        QVERIFY(code.contains("output_padding=None, padding=\"valid\""));
        QVERIFY(code.contains("output_padding=(1, 1), padding=\"valid\""));
        const QString out = dir.path() + "/keras.json";
        QVERIFY(run_python_jobs(Json::array({{{"kind", "keras"}, {"model", dir.path().toStdString()},
                                               {"output", out.toStdString()}}}),
                                dir.path()));  // the script compiles
    }

    void safetensors_export_round_trips_weights_and_metadata() {
        QTemporaryDir dir;
        lf::Model m(cnn());
        randomize(m, 5);
        const auto files = lf::export_model(m, kMeta, {.format = lf::ExportFormat::Safetensors}, dir.path().toStdString());
        QCOMPARE(files.size(), std::size_t(1));
        lf::Model back(cnn());
        lf::load_weights(back, files[0]);
        QCOMPARE(back.weights(), m.weights());
        const auto meta = lf::read_weights_metadata(files[0]);
        const lf::ExportMetadata again = lf::export_metadata(lf::DatasetBinding{}, meta);
        QCOMPARE(again.classes, kMeta.classes);
        QCOMPARE(again.mean, kMeta.mean);
        QCOMPARE(again.std, kMeta.std);
        QCOMPARE(meta.at("source"), std::string("unit test"));
        const Json graph = Json::parse(meta.at("graph"));
        QCOMPARE(graph["nodes"].size(), m.graph().nodes.size());
    }

    void metadata_travels_with_onnx_and_pytorch() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        lf::Model m(mlp());
        lf::export_model(m, kMeta, {}, d + "/onnx");
        lf::export_model(m, kMeta, {.format = lf::ExportFormat::PyTorch}, d + "/torch");
        QVERIFY(run_python_jobs(Json::array({{{"kind", "check"}, {"model", d + "/onnx/model.onnx"}, {"output", d + "/c.json"}}}),
                                dir.path()));
        const Json props = read_json(dir.path() + "/c.json")["metadata"];
        QCOMPARE(Json::parse(props["classes"].get<std::string>()), Json(kMeta.classes));
        QCOMPARE(Json::parse(props["mean"].get<std::string>()), Json(kMeta.mean));
        QCOMPARE(Json::parse(props["std"].get<std::string>()), Json(kMeta.std));
        QCOMPARE(props["input_layout"], Json("NHWC"));
        const QByteArray code = file_bytes(dir.path() + "/torch/model.py");
        QVERIFY(code.contains(R"(CLASSES = ["T-shirt","Trouser","Pullover","Dress","Coat"])"));
        QVERIFY(code.contains("MEAN = [0.25, 0.5, 0.75]"));
        QVERIFY(code.contains("STD = [0.5, 0.25, 0.125]"));
        QVERIFY(code.contains("def load_model("));
    }

    void unmapped_layer_is_named_before_anything_is_written() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 2}}});
        auto up = b.add("Conv2DTranspose", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{2, 2}}}, {in});
        auto g = b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("gelu")}}, {b.add("Flatten", {}, {up})});
        (void)g;
        lf::Model m(b.graph);
        QTemporaryDir dir;
        const std::string out = (dir.path() + "/out").toStdString();
        for (auto f : {lf::ExportFormat::Onnx, lf::ExportFormat::PyTorch})
            LF_EXPECT_INPUT_ERROR(lf::export_model(m, {}, {.format = f}, out), "dense_3", "activation 'gelu'",
                                  "nothing was written");
        QCOMPARE(lf::unmapped_layers(m, {.format = lf::ExportFormat::Onnx}).size(), std::size_t(1));  // not the ConvTranspose
        QVERIFY(!QFileInfo::exists(dir.path() + "/out"));
        QCOMPARE(lf::unmapped_layers(m, {.format = lf::ExportFormat::Keras}).size(), std::size_t(0));
        lf::export_model(m, {}, {.format = lf::ExportFormat::Keras}, out);  // tf.keras has both
        QVERIFY(QFileInfo::exists(dir.path() + "/out/keras_model.py"));
    }

    void existing_file_is_kept_without_force() {
        QTemporaryDir dir;
        lf::Model m(mlp());
        QFile f(dir.path() + "/model.onnx");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("mine");
        f.close();
        LF_EXPECT_INPUT_ERROR(lf::export_model(m, {}, {}, dir.path().toStdString()), "model.onnx", "already exists", "--force");
        QCOMPARE(file_bytes(dir.path() + "/model.onnx"), QByteArray("mine"));
        lf::export_model(m, {}, {.force = true}, dir.path().toStdString());
        QVERIFY(file_bytes(dir.path() + "/model.onnx").size() > 1000);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"model.onnx"});  // no temporary left
    }

    void cli_exports_weights_file_and_checkpoint() {
        QTemporaryDir dir;
        const QString proj = dir.path() + "/p.lfproj";
        lf::Project p;
        p.name = "p";
        p.graph = cnn();
        lf::save_project(p, proj.toStdString());
        lf::Model m(p.graph);
        randomize(m, 9);
        lf::save_weights(m, (dir.path() + "/p.weights.safetensors").toStdString(),
                         {{"classes", Json(kMeta.classes).dump()}});
        CliRun r = cli({"export", proj, "--format", "onnx", "--out", dir.path() + "/x", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lines().back()["event"], Json("exported"));
        QCOMPARE(r.lines().back()["classes"], Json(kMeta.classes));
        QVERIFY(QFileInfo::exists(dir.path() + "/x/model.onnx"));

        r = cli({"export", proj, "--format", "onnx", "--out", dir.path() + "/x"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("already exists") && r.err.contains("--force"), qPrintable(r.err));
        QCOMPARE(cli({"export", proj, "--format", "onnx", "--out", dir.path() + "/x", "--force"}).code, 0);
        r = cli({"export", proj, "--format", "tflite", "--out", dir.path() + "/y"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("onnx, safetensors, pytorch or keras"));

        // A checkpoint with other weights: its export differs from the weights file's.
        lf::Model ck(p.graph);
        randomize(ck, 21);
        auto opt = lf::make_optimizer("SGD", {});
        {
            lf::RunStore store(lf::RunStore::path_for_project(proj.toStdString()));
            const auto run = store.create_run({.name = "r"});
            store.save_checkpoint(run, 10, 1, "{}", lf::encode_checkpoint(ck, *opt, lf::TrainState{}), {});
        }
        r = cli({"export", proj, "--checkpoint", "latest", "--format", "safetensors", "--out", dir.path() + "/c", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        lf::Model back(p.graph);
        lf::load_weights(back, (dir.path() + "/c/model.safetensors").toStdString());
        QCOMPARE(back.weights(), ck.weights());
        QVERIFY(r.lines().back()["source"].get<std::string>().find("ckpt-10") != std::string::npos);
        QVERIFY(cli({"export", "--help"}).out.contains("--fold-batchnorm"));
    }
};

QTEST_GUILESS_MAIN(TestExportFiles)
#include "test_export_files.moc"
