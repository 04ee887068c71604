// The studio's export dialog: exports the session's current weights or a checkpoint through
// the engine's export module, asks before overwriting, and reports failures in the dialog.
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

#include "export/export_dialog.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/graph/model.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/optimizer.h"
#include "session/studio_session.h"
#include "ui_test_util.h"

using namespace lf::ui;

class TestExportDialog : public QObject {
    Q_OBJECT

    // A saved copy of the MLP template with seeded weights in the session.
    struct Fixture {
        QTemporaryDir dir;
        ProjectDocument doc;
        StudioSession session{&doc};
        std::vector<float> weights;
        Fixture() {
            loadTemplate(doc, "fashion_mlp.lfproj");
            QString error;
            doc.saveAs(dir.path() + "/mlp.lfproj", &error);
            lf::Model m(doc.graph());
            m.init_weights(3);
            weights = m.weights();
            session.setWeights(lf::encode_weights(m, {{"classes", R"(["a","b","c","d","e","f","g","h","i","j"])"}}), "trained");
        }
    };

    static void choose(ExportDialog& d, int format, const QString& folder) {
        d.findChild<QComboBox*>("format")->setCurrentIndex(format);
        d.findChild<QLineEdit*>("folder")->setText(folder);
    }

private Q_SLOTS:
    void exports_current_weights_in_every_format() {
        Fixture f;
        ExportDialog d(&f.session, std::nullopt);
        QSignalSpy spy(&d, &ExportDialog::exported);
        const QStringList expected[] = {{"model.onnx"}, {"model.safetensors"}, {"model.py", "model_state.safetensors"},
                                        {"keras_model.py", "keras_weights.npz", "model.keras"}};
        for (int i = 0; i < 4; ++i) {
            const QString out = f.dir.path() + "/out" + QString::number(i);
            choose(d, i, out);
            QVERIFY2(d.exportModel(), qPrintable(d.lastError()));
            QCOMPARE(QDir(out).entryList(QDir::Files), expected[i]);
        }
        QCOMPARE(spy.count(), 4);
        // The safetensors export holds the session's weights and their class names.
        lf::Model back(f.doc.graph());
        lf::load_weights(back, (f.dir.path() + "/out1/model.safetensors").toStdString());
        QCOMPARE(back.weights(), f.weights);
        QVERIFY(lf::read_weights_metadata((f.dir.path() + "/out1/model.safetensors").toStdString()).at("classes").find("\"j\"") !=
                std::string::npos);
        // Opset and layout only matter for ONNX.
        choose(d, 2, f.dir.path() + "/x");
        QVERIFY(!d.findChild<QSpinBox*>("opset")->isEnabled());
        QVERIFY(d.findChild<QCheckBox*>("foldBatchNorm")->isEnabled());
    }

    // bfloat16 weights are a safetensors choice: rounded to nearest even, read back widened.
    void writes_bfloat16_safetensors_when_chosen() {
        Fixture f;
        ExportDialog d(&f.session, std::nullopt);
        auto* dtype = d.findChild<QComboBox*>("dtype");
        QVERIFY(dtype);
        choose(d, 0, f.dir.path() + "/onnx");
        QVERIFY(!dtype->isEnabled());  // ONNX takes float32 weights only
        choose(d, 1, f.dir.path() + "/bf16");
        QVERIFY(dtype->isEnabled());
        QCOMPARE(dtype->currentIndex(), 0);  // float32 unless asked
        dtype->setCurrentIndex(1);
        QVERIFY2(d.exportModel(), qPrintable(d.lastError()));
        const std::string path = (f.dir.path() + "/bf16/model.safetensors").toStdString();
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"dtype\":\"BF16\""));
        lf::Model back(f.doc.graph());
        lf::load_weights(back, path);
        for (std::size_t i = 0; i < f.weights.size(); ++i)
            QCOMPARE(back.weights()[i], lf::from_bfloat16(lf::to_bfloat16(f.weights[i])));
    }

    void asks_before_overwriting() {
        Fixture f;
        ExportDialog d(&f.session, std::nullopt);
        choose(d, 0, f.dir.path() + "/o");
        QVERIFY(d.exportModel());
        QStringList asked;
        d.setOverwriteConfirmation([&](const QStringList& files) { return asked = files, false; });
        const QDateTime before = QFileInfo(f.dir.path() + "/o/model.onnx").lastModified();
        QVERIFY(!d.exportModel());
        QCOMPARE(asked, QStringList{f.dir.path() + "/o/model.onnx"});
        QVERIFY(d.writtenFiles().isEmpty());
        d.setOverwriteConfirmation([](const QStringList&) { return true; });
        QVERIFY(d.exportModel());
        QCOMPARE(d.writtenFiles().size(), 1);
        QVERIFY(QFileInfo(f.dir.path() + "/o/model.onnx").lastModified() >= before);
    }

    void exports_a_checkpoint() {
        Fixture f;
        lf::Model ck(f.doc.graph());
        ck.init_weights(99);
        {
            lf::RunStore store(f.session.storePath().toStdString());
            const auto run = store.create_run({.name = "r"});
            auto opt = lf::make_optimizer("SGD", {});
            store.save_checkpoint(run, 5, 1, "{}", lf::encode_checkpoint(ck, *opt, lf::TrainState{}), {});
        }
        const auto id = lf::RunStore(f.session.storePath().toStdString()).checkpoints().front().id;
        ExportDialog d(&f.session, id);
        choose(d, 1, f.dir.path() + "/ck");
        QVERIFY2(d.exportModel(), qPrintable(d.lastError()));
        lf::Model back(f.doc.graph());
        lf::load_weights(back, (f.dir.path() + "/ck/model.safetensors").toStdString());
        QCOMPARE(back.weights(), ck.weights());
    }

    void reports_missing_weights() {
        ProjectDocument doc;
        loadTemplate(doc, "fashion_mlp.lfproj");
        StudioSession session(&doc);
        QTemporaryDir dir;
        ExportDialog d(&session, std::nullopt);
        choose(d, 0, dir.path() + "/none");
        QVERIFY(!d.exportModel());
        QVERIFY2(d.lastError().contains("no weights"), qPrintable(d.lastError()));
        QVERIFY(!QFileInfo::exists(dir.path() + "/none"));
    }
};

QTEST_MAIN(TestExportDialog)
#include "test_export_dialog.moc"
