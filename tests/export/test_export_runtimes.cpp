// Exported ONNX and PyTorch models run in runtimes Layerforge did not write (OpenCV DNN, the
// onnx checker, Debian's torch) and must match the engine's predictions: max abs difference
// < 1e-4 on probabilities and identical argmax, for an MLP, a CNN, a residual network and a
// functional graph with Concatenate branches; also NCHW input, opsets and BatchNorm folding.
#include <QtTest>

#include <map>

#include "export_fixtures.h"
#include "layerforge/export/export.h"
#include "layerforge/project/project.h"

using namespace export_test;

// Both runtimes (OpenCV on the ONNX file, torch on model.py) match the engine.
#define EXPECT_RUNTIMES_MATCH(e, what)                                                    \
    do {                                                                                  \
        EXPECT_SAME_PREDICTIONS(e.engine, e.opencv, std::size_t(e.width), what ", OpenCV"); \
        EXPECT_SAME_PREDICTIONS(e.engine, e.torch, std::size_t(e.width), what ", PyTorch"); \
    } while (0)
using Json = nlohmann::json;

class TestExportRuntimes : public QObject {
    Q_OBJECT

    static constexpr std::int64_t kBatch = 4;

    struct Exported {
        std::vector<float> engine, opencv, torch;
        Json check;  // onnx checker summary
        std::int64_t width = 0;
    };

    // Every case is exported up front and run in one Python process (importing torch and cv2
    // costs seconds); the test functions then compare.
    QTemporaryDir dir_;
    Json jobs_ = Json::array();
    std::map<QString, Exported> results_;

    // Exports `g` as ONNX and PyTorch into DIR/name, queues both runs on one random batch, and
    // keeps the engine's own output.
    void prepare(const QString& name, const lf::Graph& g, lf::ExportOptions onnx = {}, bool fold_torch = false) {
        const QString d = dir_.path() + "/" + name;
        lf::Model m(g);
        randomize(m, 7);
        const auto x = random_inputs(m, kBatch, 11);
        Exported& e = results_[name];
        e.engine = engine_predict(m, x, kBatch);
        e.width = std::int64_t(e.engine.size()) / kBatch;
        const lf::ExportMetadata meta{{"a", "b", "c", "d", "e"}, {}, {}, "test"};
        lf::export_model(m, meta, onnx, (d + "/onnx").toStdString());
        lf::ExportOptions torch{.format = lf::ExportFormat::PyTorch, .fold_batchnorm = fold_torch};
        lf::export_model(m, meta, torch, (d + "/torch").toStdString());
        const lf::Shape s = m.info(m.input_node()).layer.output;
        std::vector<std::int64_t> nhwc{kBatch};
        nhwc.insert(nhwc.end(), s.dims.begin(), s.dims.end());
        std::vector<std::int64_t> onnx_shape = nhwc;
        write_floats(d + "/x.f32", x);
        QString onnx_input = d + "/x.f32";
        if (onnx.layout == lf::InputLayout::NCHW) {
            write_floats(d + "/x_nchw.f32", to_nchw(x, kBatch, s[0], s[1], s[2]));
            onnx_input = d + "/x_nchw.f32";
            onnx_shape = {kBatch, s[2], s[0], s[1]};
        }
        const std::string model = (d + "/onnx/model.onnx").toStdString();
        jobs_.push_back({{"kind", "check"}, {"model", model}, {"output", (d + "/check.json").toStdString()}});
        jobs_.push_back({{"kind", "cv2"}, {"model", model}, {"input", onnx_input.toStdString()}, {"shape", onnx_shape},
                         {"output", (d + "/cv2.f32").toStdString()}});
        jobs_.push_back({{"kind", "torch"}, {"model", (d + "/torch").toStdString()}, {"input", (d + "/x.f32").toStdString()},
                         {"shape", nhwc}, {"output", (d + "/torch.f32").toStdString()}});
    }

    const Exported& result(const QString& name) const { return results_.at(name); }

    static int count(const Json& ops, const std::string& type) {
        int n = 0;
        for (const auto& o : ops) n += o.get<std::string>() == type;
        return n;
    }

    static QStringList templates() {
        return {"fashion_mlp", "fashion_cnn", "fashion_functional", "fashion_resnet", "mobilenet_v2_small"};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        prepare("mlp", mlp());
        prepare("cnn", cnn());
        prepare("residual", residual());
        prepare("branches", branches());
        prepare("misc", misc());
        prepare("capped_relus", capped_relus());
        prepare("upsampling", upsampling());
        prepare("dilated_upsampling", dilated_upsampling());
        prepare("folded", residual(), {.fold_batchnorm = true}, true);
        prepare("nchw", cnn(), {.layout = lf::InputLayout::NCHW});
        prepare("opset17", mlp(), {.opset = 17});
        for (const QString& t : templates())
            prepare(t, lf::load_project(qEnvironmentVariable("LF_SOURCE_DIR").toStdString() + "/resources/templates/" +
                                        t.toStdString() + ".lfproj")
                           .graph);
        QVERIFY(run_python_jobs(jobs_, dir_.path()));
        for (auto& [name, e] : results_) {
            const QString d = dir_.path() + "/" + name;
            e.opencv = read_floats(d + "/cv2.f32");
            e.torch = read_floats(d + "/torch.f32");
            e.check = read_json(d + "/check.json");
        }
    }

    void mlp_matches_opencv_and_torch() {
        const Exported& e = result("mlp");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "Dropout"), 0);  // inference graph
        QCOMPARE(e.check["inputs"]["input_0"], Json({"N", 6, 6, 3}));
        QCOMPARE(e.check["outputs"]["softmax_5"], Json({"N", 5}));
    }

    void cnn_matches_opencv_and_torch() {
        const Exported& e = result("cnn");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "Conv"), 2);
        QCOMPARE(count(e.check["ops"], "Transpose"), 1);  // only at the input: Flatten's Dense is permuted instead
    }

    void residual_matches_opencv_and_torch() {
        const Exported& e = result("residual");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "BatchNormalization"), 2);
        QCOMPARE(count(e.check["ops"], "Add"), 1);
    }

    void branches_match_opencv_and_torch() {
        const Exported& e = result("branches");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "Concat"), 2);
    }

    void padding_pooling_reshape_and_activations_match() {
        const Exported& e = result("misc");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        for (const char* op : {"Pad", "Elu", "LeakyRelu", "AveragePool", "GlobalMaxPool", "Reshape", "Sigmoid", "Mul"})
            QVERIFY2(count(e.check["ops"], op) >= 1, op);
        QCOMPARE(count(e.check["ops"], "HardSigmoid"), 2);  // hard_swish's (x * HardSigmoid(x)) and the Dense's
    }

    void capped_and_thresholded_relu_match() {
        const Exported& e = result("capped_relus");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "Sign"), 1);  // the threshold's step
        QCOMPARE(count(e.check["ops"], "Relu"), 4);  // r1's Relu, the step and both caps
    }

    void conv_transpose_with_output_padding_matches() {
        const Exported& e = result("upsampling");
        EXPECT_RUNTIMES_MATCH(e, "exported");
        QCOMPARE(count(e.check["ops"], "ConvTranspose"), 2);
        QCOMPARE(count(e.check["ops"], "Slice"), 1);  // only the first crops unevenly
    }

    // Torch runs the exported module like the engine, and ONNX's own shape inference gives the
    // engine's output size. OpenCV 4.6 (Debian) is a known third-party bug here: it returns 48
    // values per sample instead of 8x9x2 = 144 for dilated ConvTranspose nodes (its deconvolution
    // layer does not size the output as the ONNX formula with dilations does), so the file is
    // right but OpenCV cannot run it. QEXPECT_FAIL keeps the comparison: a fixed OpenCV turns it
    // into an XPASS failure, and this note must then go.
    void dilated_conv_transpose_matches_torch() {
        const Exported& e = result("dilated_upsampling");
        QCOMPARE(e.width, std::int64_t(8 * 9 * 2));
        EXPECT_SAME_PREDICTIONS(e.engine, e.torch, std::size_t(e.width), "dilated, PyTorch");
        QCOMPARE(count(e.check["ops"], "ConvTranspose"), 2);
        QCOMPARE(e.check["outputs"].begin().value(), Json({"N", 8 * 9 * 2}));
        QEXPECT_FAIL("", "OpenCV 4.6 returns a wrong output size for a dilated ConvTranspose", Continue);
        QCOMPARE(e.opencv.size(), e.engine.size());
    }

    // The studio's Fashion-MNIST templates (MobileNetV2 brings DepthwiseConv2D), as users get them.
    void every_template_matches_opencv_and_torch_data() {
        QTest::addColumn<QString>("name");
        for (const QString& t : templates()) QTest::newRow(qPrintable(t)) << t;
    }
    void every_template_matches_opencv_and_torch() {
        QFETCH(QString, name);
        const Exported& e = result(name);
        EXPECT_RUNTIMES_MATCH(e, "exported");
    }

    void folded_batchnorm_is_equivalent() {
        const Exported& e = result("folded");
        EXPECT_RUNTIMES_MATCH(e, "folded");
        QCOMPARE(count(e.check["ops"], "BatchNormalization"), 0);
        QCOMPARE(count(e.check["ops"], "Conv"), 2);
    }

    void nchw_input_layout() {
        const Exported& e = result("nchw");
        EXPECT_SAME_PREDICTIONS(e.engine, e.opencv, std::size_t(e.width), "OpenCV, NCHW");
        QCOMPARE(e.check["inputs"]["input_0"], Json({"N", 2, 10, 10}));
        QCOMPARE(count(e.check["ops"], "Transpose"), 0);
        QCOMPARE(e.check["metadata"]["input_layout"], Json("NCHW"));
    }

    void opset_choice() {
        const Exported& e = result("opset17");
        QCOMPARE(e.check["opset"], Json(17));
        EXPECT_SAME_PREDICTIONS(e.engine, e.opencv, std::size_t(e.width), "OpenCV, opset 17");
        lf::Model m(mlp());
        QTemporaryDir dir;
        for (int bad : {12, 18}) {
            LF_EXPECT_INPUT_ERROR(lf::export_model(m, {}, {.opset = bad}, dir.path().toStdString()), "opset", "13 to 17");
        }
        QVERIFY(QDir(dir.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestExportRuntimes)
#include "test_export_runtimes.moc"
