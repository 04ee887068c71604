// Projects: save/open round trip through the main window, the modified state, the recovery
// file written by autosave and restored after a "crash", and the tf.keras JSON import.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "document/recovery.h"
#include "document/rename_node.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/project/keras_import.h"
#include "mainwindow/main_window.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

const char* kSequential = R"({"class_name": "Sequential", "config": {"name": "sequential", "layers": [
  {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 28, 28], "dtype": "float32", "name": "flatten_input"}},
  {"class_name": "Flatten", "config": {"name": "flatten", "trainable": true, "batch_input_shape": [null, 28, 28]}},
  {"class_name": "Dense", "config": {"name": "dense", "units": 100, "activation": "relu", "use_bias": true,
   "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": null}}}},
  {"class_name": "Dropout", "config": {"name": "dropout", "rate": 0.2}},
  {"class_name": "Dense", "config": {"name": "dense_1", "units": 10, "activation": "softmax"}}]},
  "keras_version": "2.13.1", "backend": "tensorflow"})";

// Keras 3 spelling: batch_shape and keras_history tensors.
const char* kFunctional = R"({"class_name": "Functional", "config": {"name": "functional", "layers": [
  {"class_name": "InputLayer", "name": "input_layer", "config": {"batch_shape": [null, 784], "name": "input_layer"}, "inbound_nodes": []},
  {"class_name": "Dense", "name": "a", "config": {"name": "a", "units": 32, "activation": "relu"},
   "inbound_nodes": [{"args": [{"class_name": "__keras_tensor__", "config": {"shape": [null, 784], "keras_history": ["input_layer", 0, 0]}}], "kwargs": {}}]},
  {"class_name": "Dense", "name": "b", "config": {"name": "b", "units": 32},
   "inbound_nodes": [{"args": [{"class_name": "__keras_tensor__", "config": {"shape": [null, 784], "keras_history": ["input_layer", 0, 0]}}], "kwargs": {}}]},
  {"class_name": "Add", "name": "add", "config": {"name": "add"},
   "inbound_nodes": [{"args": [[{"class_name": "__keras_tensor__", "config": {"keras_history": ["a", 0, 0]}},
                                {"class_name": "__keras_tensor__", "config": {"keras_history": ["b", 0, 0]}}]], "kwargs": {}}]}],
  "input_layers": [["input_layer", 0, 0]], "output_layers": [["add", 0, 0]]}})";

}  // namespace

class TestProjectFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void saveOpenRoundTrip() {
        MainWindow window(dir_.filePath("recovery.lfproj"));
        QVERIFY(window.openFile(lfTemplate("fashion_functional.lfproj")));
        ProjectDocument* doc = window.document();
        doc->push(new RenameNodeCommand(doc, "dense", "hidden"));
        QVERIFY(doc->isModified());
        QVERIFY(window.isWindowModified());
        const QString path = dir_.filePath("saved.lfproj");
        QVERIFY(window.saveTo(path));
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->fileName(), path);

        MainWindow other(dir_.filePath("recovery2.lfproj"));
        QVERIFY(other.openFile(path));
        QCOMPARE(other.document()->project(), doc->project());
        QCOMPARE(other.document()->project().name, std::string("saved"));
        QCOMPARE(other.document()->graph().find("dense")->name, std::string("hidden"));
        doc->undoStack()->undo();
        QVERIFY(doc->isModified());  // the saved state is the renamed one
    }

    void recoveryAfterCrash() {
        const QString recoveryPath = dir_.filePath("crash.lfproj");
        QString edited;
        {
            ProjectDocument doc;
            loadTemplate(doc);
            Recovery recovery(&doc, recoveryPath, 60000);
            QVERIFY(!recovery.writeNow());  // nothing unsaved: nothing written
            QVERIFY(!recovery.exists());
            doc.push(new RenameNodeCommand(&doc, "dense", "hidden"));
            QVERIFY(recovery.writeNow());
            edited = doc.serialized();
        }  // "crash": the file stays
        ProjectDocument doc;
        Recovery recovery(&doc, recoveryPath, 60000);
        QVERIFY(recovery.exists());
        QString error;
        QVERIFY2(recovery.restore(&error), qPrintable(error));
        QCOMPARE(doc.serialized(), edited);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.fileName(), lfTemplate("fashion_functional.lfproj"));
        recovery.discard();
        QVERIFY(!QFile::exists(recoveryPath));
    }

    void autosaveTimerWrites() {
        const QString recoveryPath = dir_.filePath("timer.lfproj");
        ProjectDocument doc;
        loadTemplate(doc);
        Recovery recovery(&doc, recoveryPath, 20);
        doc.push(new RenameNodeCommand(&doc, "dense", "hidden"));
        QTRY_VERIFY(recovery.exists());
    }

    void openReportsErrors() {
        ProjectDocument doc;
        QString error;
        QVERIFY(!doc.load(dir_.filePath("missing.lfproj"), &error));
        QVERIFY(error.contains("missing.lfproj"));
    }

    void openSaysAnEmptyFileIsEmpty() {  // it read as "No such file or directory"
        const QString path = dir_.filePath("zero.lfproj");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        ProjectDocument doc;
        QString error;
        QVERIFY(!doc.load(path, &error));
        QVERIFY2(error.contains("zero.lfproj") && error.contains("empty"), qPrintable(error));
        QVERIFY2(!error.contains("No such file"), qPrintable(error));
    }

    void importSequential() {
        Graph g = import_keras_model(kSequential);
        QCOMPARE(g.nodes.size(), std::size_t(5));
        QCOMPARE(g.nodes[0].type, std::string("Input"));
        QCOMPARE(std::get<IntList>(g.nodes[0].params.at("shape")), (IntList{28, 28}));
        QCOMPARE(g.edges.size(), std::size_t(4));
        Analysis a = analyze(g);
        QVERIFY2(a.ok(), a.error_report().c_str());
        QCOMPARE(a.total_params, std::int64_t(784 * 100 + 100 + 100 * 10 + 10));
    }

    void importFunctional() {
        Graph g = import_keras_model(kFunctional);
        QCOMPARE(g.nodes.size(), std::size_t(4));
        QCOMPARE(g.inputs_of("add").size(), std::size_t(2));
        QCOMPARE(g.inputs_of("add")[1].from.node, std::string("b"));
        QVERIFY(analyze(g).ok());
    }

    void importThroughTheWindow() {
        const QString path = dir_.filePath("model.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kFunctional);
        f.close();
        MainWindow window(dir_.filePath("recovery3.lfproj"));
        QVERIFY(window.importKeras(path));
        QCOMPARE(window.document()->graph().nodes.size(), std::size_t(4));
        QVERIFY(window.document()->graph().find("a")->x > window.document()->graph().find("input_layer")->x);
    }

    void importRejectsUnsupported() {
        bool thrown = false;
        try {
            import_keras_model(R"({"class_name": "Sequential", "config": {"layers": [
              {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 4], "name": "in"}},
              {"class_name": "LSTM", "config": {"name": "lstm"}}]}})", "m.json");
        } catch (const Error& e) {
            thrown = true;
            QCOMPARE(QString(e.what()), QString("m.json: layer 'lstm': LSTM is not supported by Layerforge yet"));
        }
        QVERIFY(thrown);
    }
};

QTEST_MAIN(TestProjectFiles)
#include "test_project_files.moc"
