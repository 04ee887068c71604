// Fine-tuning through the CLI: `train` starts from the project's weights file (an imported
// model's) and leaves frozen layers byte-identical, `--init random` starts from the seed, and
// `predict` feeds a .npy batch to the Input as it is and writes the outputs with --out.
#include <QtTest>

#include <fstream>

#include "cli_runner.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/npy.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/inference.h"

namespace {

void write_ppm(const std::string& path, int shade) {
    std::ofstream f(path, std::ios::binary);
    f << "P6\n4 4\n255\n";
    for (int i = 0; i < 48; ++i) f.put(char((shade + i * 5) % 256));
}

// Input(4, 4, 3) -> Conv2D (frozen) -> GlobalAveragePooling2D -> Dense(2, softmax), bound to
// DIR/data/{dark,light}, normalised with the ImageNet statistics.
lf::Project project(const QString& dir) {
    for (int c = 0; c < 2; ++c) {
        const QString cls = dir + "/data/train/" + (c ? "light" : "dark");
        QDir().mkpath(cls);
        for (int i = 0; i < 6; ++i) write_ppm((cls + QString("/%1.ppm").arg(i)).toStdString(), 30 + 150 * c + i);
    }
    using namespace lf;
    Project p;
    p.name = "ft";
    p.graph.nodes = {{"input", "Input", "input", {{"shape", IntList{4, 4, 3}}}},
                     {"conv", "Conv2D", "conv", {{"filters", std::int64_t(4)}, {"kernel_size", IntList{3, 3}}}},
                     {"pool", "GlobalAveragePooling2D", "pool", {}},
                     {"head", "Dense", "head", {{"units", std::int64_t(2)}, {"activation", std::string("softmax")}}}};
    p.graph.nodes[1].trainable = false;
    p.graph.edges = {{{"input", 0}, {"conv", 0}}, {{"conv", 0}, {"pool", 0}}, {{"pool", 0}, {"head", 0}}};
    p.dataset.kind = "image-folder";
    p.dataset.path = (dir + "/data").toStdString();
    p.dataset.validation = "none";
    p.dataset.image = {{"normalize", std::string("imagenet")}};
    p.training.batch_size = 4;
    p.training.epochs = 1;
    p.training.optimizer = {"SGD", {{"learning_rate", 0.5}}};
    return p;
}

std::vector<float> weight(const std::string& path, const std::string& name) {
    const std::string bytes = lf::read_file(path, "weights", lf::kMaxWeightsFileBytes);
    const lf::SafetensorsView v = lf::parse_safetensors(bytes, path);
    const auto& t = v.tensors.at(name);
    const float* p = reinterpret_cast<const float*>(t.data);
    return std::vector<float>(p, p + t.bytes / sizeof(float));
}

struct Fixture {
    QTemporaryDir dir;
    QString proj, weights;
    lf::Project p;
    Fixture() : proj(dir.filePath("ft.lfproj")), weights(dir.filePath("ft.weights.safetensors")), p(project(dir.path())) {
        p.training.initial_weights = "ft.weights.safetensors";  // as an import names its pretrained file
        lf::save_project(p, proj.toStdString());
        lf::Model m(p.graph);  // "imported" weights: anything but the seed's
        m.init_weights(1234);
        lf::save_weights(m, weights.toStdString());
    }
};

bool has_line(const CliRun& r, const QString& start) {
    for (const QString& l : r.out.split('\n'))
        if (l.startsWith(start)) return true;
    return false;
}

}  // namespace

class TestCliFineTune : public QObject {
    Q_OBJECT

private slots:
    void trainStartsFromTheImportedWeightsAndKeepsFrozenLayers() {
        Fixture f;
        const std::vector<float> conv = weight(f.weights.toStdString(), "conv/kernel");
        const std::vector<float> head = weight(f.weights.toStdString(), "head/kernel");
        const CliRun r = cli({"train", f.proj, "--checkpoint-epochs", "0"});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QVERIFY2(has_line(r, "starting from the weights in " + f.weights), qPrintable(r.out));
        QCOMPARE(weight(f.weights.toStdString(), "conv/kernel"), conv);  // frozen: byte-identical
        QVERIFY(weight(f.weights.toStdString(), "head/kernel") != head);
        QVERIFY(weight(f.weights.toStdString(), "conv/kernel") != weight(f.weights.toStdString(), "head/kernel"));
    }

    void initRandomStartsFromTheSeed() {
        Fixture f;
        const std::vector<float> imported = weight(f.weights.toStdString(), "conv/kernel");
        const CliRun r = cli({"train", f.proj, "--init", "random", "--checkpoint-epochs", "0"});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QVERIFY2(has_line(r, "starting from random weights (seed 42)"), qPrintable(r.out));
        lf::Model seeded(f.p.graph);
        seeded.init_weights(42);
        const lf::WeightRef* k = seeded.find_weight("conv/kernel");
        const std::vector<float> want(seeded.weights().begin() + std::ptrdiff_t(k->offset),
                                      seeded.weights().begin() + std::ptrdiff_t(k->offset + k->size));
        QCOMPARE(weight(f.weights.toStdString(), "conv/kernel"), want);  // frozen at the seed's values
        QVERIFY(want != imported);
        QCOMPARE(cli({"train", f.proj, "--init", "pretrained"}).code, 2);
    }

    void predictFeedsANpyBatchAsItIs() {
        Fixture f;
        std::vector<float> x(3 * 4 * 4 * 3);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 17) * 0.1f - 0.5f;
        const QString in = f.dir.filePath("x.npy"), out = f.dir.filePath("y.npy");
        lf::write_file_atomic(in.toStdString(), lf::encode_npy({3, 4, 4, 3}, x.data(), x.size()), "batch");
        const CliRun r = cli({"predict", f.proj, in, "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        const lf::NpyArray y = lf::decode_npy(lf::read_file(out.toStdString(), "y"), "y.npy");
        QCOMPARE(y.shape, (std::vector<std::int64_t>{3, 2}));
        // The engine on the same weights and the raw batch (no ImageNet normalisation applied).
        lf::Model m(f.p.graph);
        lf::load_weights(m, f.weights.toStdString());
        lf::TensorDataset d;
        d.sample_shape = lf::Shape{4, 4, 3};
        d.images = x;
        d.labels.assign(3, 0);
        lf::Inference inference(m, f.p.training);
        const std::vector<float> want = inference.predict(d);
        QCOMPARE(y.data.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) QVERIFY(std::abs(y.data[i] - want[i]) < 1e-6f);

        const CliRun text = cli({"predict", f.proj, in});  // without --out: one line per sample
        QCOMPARE(text.code, 0);
        QVERIFY2(has_line(text, "sample 2: "), qPrintable(text.out));

        const QString wrong = f.dir.filePath("wrong.npy");
        lf::write_file_atomic(wrong.toStdString(), lf::encode_npy({2, 4, 4, 1}, x.data(), 32), "batch");
        const CliRun bad = cli({"predict", f.proj, wrong, "--out", out});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("wrong.npy") && bad.err.contains("(N, 4, 4, 3)"), qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestCliFineTune)
#include "test_cli_fine_tune.moc"
