// File > Import Model and model files dropped on the window: a network written by torch.onnx.export
// becomes a project beside the model, with its weights file, opened in the studio with the import
// report; an unreadable file or a cancel writes nothing and leaves the open project as it was.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include "document/project_document.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/run/session.h"
#include "layerforge/store/weights_file.h"
#include "mainwindow/main_window.h"
#include "mainwindow/model_import.h"
#include "ui_test_util.h"

using namespace lf::ui;

namespace {

// A small CNN (Conv, ReLU, MaxPool, Flatten, Linear) exported by torch at opset 13.
bool writeOnnxModel(const QString& path, QString* output) {
    const QString script = QStringLiteral(R"(
import sys, torch
torch.manual_seed(3)
net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                          torch.nn.Flatten(), torch.nn.Linear(4 * 3 * 3, 5)).eval()
torch.onnx.export(net, torch.zeros(1, 1, 8, 8), sys.argv[1], opset_version=13)
)");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3", {"-c", script, path});
    const bool ok = p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    *output = QString::fromUtf8(p.readAll());
    return ok && QFile::exists(path);
}

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot); }

}  // namespace

class TestModelImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QString out;
        QVERIFY2(writeOnnxModel(dir_.filePath("small.onnx"), &out), qPrintable(out));
    }

    void theFileDialogOffersEveryFormat() {
        for (const char* pattern : {"*.onnx", "*.keras", "*.h5"}) QVERIFY2(ModelImport::fileFilter().contains(pattern), qPrintable(ModelImport::fileFilter()));
        QVERIFY(ModelImport::isModelFile("/x/Net.ONNX"));
        QVERIFY(!ModelImport::isModelFile("/x/net.json"));  // Keras JSON: the graph-only import
    }

    void anImportedModelOpensWithItsWeightsAndReport() {
        MainWindow window(dir_.filePath("recovery.json"));
        window.show();
        QString suggested;
        const QString project = dir_.filePath("imported/small.lfproj");
        QDir().mkpath(dir_.filePath("imported"));
        window.modelImport()->setChooser([&](const QString& s) { return suggested = s, project; });
        QSignalSpy done(window.modelImport(), &ModelImport::imported);
        QVERIFY(window.importModel(dir_.filePath("small.onnx")));
        QVERIFY(!window.importModel(dir_.filePath("small.onnx")));  // one at a time
        QVERIFY(done.wait(30000));
        QCOMPARE(suggested, dir_.filePath("small.lfproj"));  // beside the model by default
        QCOMPARE(window.document()->fileName(), project);
        QVERIFY(window.document()->graph().nodes.size() >= 5);
        // The weights file beside the project holds the network's weights: it loads into the model.
        lf::Model model(lf::load_project(project.toStdString()).graph);
        lf::load_weights(model, lf::default_weights_path(project.toStdString()));
        QVERIFY(std::any_of(model.weights().begin(), model.weights().end(), [](float w) { return w != 0.0f; }));
        auto* report = window.findChild<QMessageBox*>("importReport");
        QVERIFY(report && report->isVisible());
        QVERIFY2(report->text().contains("small.onnx") && report->text().contains("ONNX"), qPrintable(report->text()));
        QVERIFY(!report->isModal());
    }

    void aDroppedModelIsImported() {
        MainWindow window(dir_.filePath("recovery2.json"));
        window.show();
        const QString project = dir_.filePath("dropped.lfproj");
        window.modelImport()->setChooser([&](const QString&) { return project; });
        QSignalSpy done(window.modelImport(), &ModelImport::imported);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir_.filePath("small.onnx"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(done.wait(30000));
        QCOMPARE(window.document()->fileName(), project);
        // An image is not a model: left to the Evaluate page's drop handler.
        mime.setUrls({QUrl::fromLocalFile(dir_.filePath("picture.png"))});
        QVERIFY(ModelImport::droppedModel(&mime).isEmpty());
    }

    void aDamagedFileWritesNothing() {
        QTemporaryDir dir;
        QFile original(dir_.filePath("small.onnx"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QString damaged = dir.filePath("damaged.onnx");
        QFile out(damaged);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(original.readAll().left(int(original.size() / 2)));  // cut in the middle of the weights
        out.close();
        ModelImport import(nullptr, [&](const QString& s) { return s; });
        QSignalSpy failed(&import, &ModelImport::failed);
        QVERIFY(import.start(damaged));
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.first().first().toString().contains(damaged), qPrintable(failed.first().first().toString()));
        QCOMPARE(entries(dir.path()), QStringList{"damaged.onnx"});
        QVERIFY(!import.busy());
    }

    void cancellingTheProjectPathWritesNothing() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(dir_.filePath("small.onnx"), dir.filePath("small.onnx")));
        ModelImport import(nullptr, [](const QString&) { return QString(); });
        QSignalSpy cancelled(&import, &ModelImport::cancelled);
        QVERIFY(import.start(dir.filePath("small.onnx")));
        QVERIFY(cancelled.wait(30000));
        QCOMPARE(entries(dir.path()), QStringList{"small.onnx"});
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestModelImport)
#include "test_model_import.moc"
