// Issue 22's fine-tuning acceptance, end to end through the CLI: torchvision's resnet18 (random
// seeded weights, BatchNormalization kept) written by torch.onnx.export is imported, its head
// replaced for a 3-class image folder, its backbone frozen, and trained for one epoch: every
// backbone weight (the moving statistics included) is byte-identical afterwards, the new head
// has moved from where it started; a second run starts from the imported weights again.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

#include "cli_runner.h"
#include "layerforge/core/file_io.h"
#include "layerforge/graph/fine_tune.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"

namespace {

using Tensors = std::map<std::string, std::vector<float>>;

Tensors read_tensors(const std::string& path) {
    const std::string bytes = lf::read_file(path, "weights", lf::kMaxWeightsFileBytes);
    const lf::SafetensorsView v = lf::parse_safetensors(bytes, path);
    Tensors out;
    for (const auto& [name, t] : v.tensors) {
        const float* p = reinterpret_cast<const float*>(t.data);
        out[name] = std::vector<float>(p, p + t.bytes / sizeof(float));
    }
    return out;
}

// DIR/data/train/{c0,c1,c2}/N.ppm: 8x8 colour images whose dominant channel is the class.
void write_image_folder(const QString& dir) {
    for (int c = 0; c < 3; ++c) {
        const QString cls = dir + QString("/data/train/c%1").arg(c);
        QDir().mkpath(cls);
        for (int i = 0; i < 6; ++i) {
            std::ofstream f((cls + QString("/%1.ppm").arg(i)).toStdString(), std::ios::binary);
            f << "P6\n8 8\n255\n";
            for (int px = 0; px < 64; ++px)
                for (int ch = 0; ch < 3; ++ch) f.put(char(ch == c ? 200 + (px + i) % 50 : 20 + (px * 3 + i) % 40));
        }
    }
}

bool write_resnet18(const QString& path, QString* log) {
    const QString script = QStringLiteral(R"(
import sys, torch, torchvision
torch.manual_seed(5)
net = torchvision.models.resnet18(weights=None, num_classes=10).eval()
torch.onnx.export(net, torch.zeros(1, 3, 32, 32), sys.argv[1], opset_version=13,
                  training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
)");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3", {"-c", script, path});
    const bool ok = p.waitForFinished(300000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    *log = QString::fromUtf8(p.readAll());
    return ok;
}

}  // namespace

class TestFineTuneImported : public QObject {
    Q_OBJECT
private slots:
    void aFrozenImportedBackboneStaysAsImported() {
        QTemporaryDir dir;
        QString log;
        QVERIFY2(write_resnet18(dir.filePath("resnet18.onnx"), &log), qPrintable(log));
        const QString proj = dir.filePath("ft.lfproj"), weights = dir.filePath("ft.weights.safetensors");
        const CliRun imported = cli({"import", dir.filePath("resnet18.onnx"), "--out", proj});
        QVERIFY2(imported.code == 0, qPrintable(imported.err + imported.out));

        // Replace the head after the last residual block, freeze everything up to it, bind the data.
        lf::Project p = lf::load_project(proj.toStdString());
        std::string end;
        for (const lf::Node& n : p.graph.nodes)
            if (n.type == "GlobalAveragePooling2D") end = p.graph.inputs_of(n.id).at(0).from.node;
        QVERIFY(!end.empty());
        const lf::Graph original = p.graph;
        lf::HeadReplacement head = lf::replace_head(p.graph, end, 3);
        p.graph = head.graph;
        for (const std::string& id : lf::nodes_up_to(p.graph, end)) p.graph.find(id)->trainable = false;
        write_image_folder(dir.path());
        p.dataset.kind = "image-folder";
        p.dataset.path = dir.filePath("data").toStdString();
        p.dataset.validation = "none";
        p.dataset.image = {{"normalize", std::string("imagenet")}};
        p.training.batch_size = 6;
        p.training.epochs = 1;
        p.training.optimizer = {"SGD", {{"learning_rate", 0.1}}};
        lf::save_project(p, proj.toStdString());

        const Tensors before = read_tensors(weights.toStdString());
        const CliRun trained = cli({"train", proj, "--checkpoint-epochs", "0"}, 300000);
        QVERIFY2(trained.code == 0, qPrintable(trained.err + trained.out));
        QVERIFY2(trained.out.contains("starting from the weights in " + dir.filePath("ft.pretrained.safetensors")),
                 qPrintable(trained.out));
        const Tensors after = read_tensors(weights.toStdString());

        // Every imported tensor is still there, unchanged: kernels, biases, BN gamma/beta and moving statistics.
        std::vector<std::string> cut;  // weight-name prefixes of the layers the new head replaced
        for (const std::string& id : head.removed) cut.push_back(original.find(id)->name + "/");
        int moving = 0, kept = 0;
        for (const auto& [name, values] : before) {
            const bool removed = std::any_of(cut.begin(), cut.end(), [&](const std::string& c) { return name.starts_with(c); });
            QVERIFY2(after.count(name) != removed, qPrintable(QString::fromStdString(name)));
            if (removed) continue;
            QVERIFY2(after.at(name) == values, qPrintable(QString::fromStdString(name) + " changed"));
            moving += name.ends_with("moving_mean");
            ++kept;
        }
        QVERIFY2(kept >= 100, "the backbone's weights were not compared");  // 20 conv kernels, 20 x 4 BN tensors
        QVERIFY2(moving == 20, "the backbone's BatchNormalization statistics were not compared");
        // The head trained: its kernel is neither the seed's start nor zero.
        lf::Model seeded(p.graph);
        seeded.init_weights(std::uint64_t(p.training.seed));
        int headTensors = 0;
        for (const std::string& id : head.added)
            for (const lf::WeightRef* r : seeded.weights_of(id)) {
                const std::vector<float> start(seeded.weights().begin() + std::ptrdiff_t(r->offset),
                                               seeded.weights().begin() + std::ptrdiff_t(r->offset + r->size));
                QVERIFY2(after.count(r->name) && after.at(r->name) != start, qPrintable(QString::fromStdString(r->name)));
                ++headTensors;
            }
        QCOMPARE(headTensors, 2);  // the new Dense's kernel and bias

        // Training does not replace the initial weights: a second run starts where the first did
        // and, with the same seed, ends with the same weights.
        const CliRun again = cli({"train", proj, "--checkpoint-epochs", "0"}, 300000);
        QVERIFY2(again.code == 0, qPrintable(again.err + again.out));
        QVERIFY(read_tensors(weights.toStdString()) == after);
    }
};

QTEST_APPLESS_MAIN(TestFineTuneImported)
#include "test_fine_tune_imported.moc"
