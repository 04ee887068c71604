// The Train page's GPU memory policy (issue 25): "Grow on demand" or a limit in MiB, the
// project's training.gpu_memory_limit_mib, an undoable edit that the form follows on undo,
// redo and load, saved in the project file and read back.
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "document/project_document.h"
#include "graph_builder.h"
#include "layerforge/project/project.h"
#include "training/training_settings_form.h"

using namespace lf;
using namespace lf::ui;

class TestGpuMemorySetting : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static Project mlp(std::int64_t gpu_limit_mib) {
        Project p;
        p.name = "gpu_memory";
        p.graph = mlp_builder({4}, 8, "relu", 3).graph;
        p.training.gpu_memory_limit_mib = gpu_limit_mib;
        return p;
    }

private Q_SLOTS:
    void growOnDemandIsTheDefaultAndALimitIsAnUndoableEdit() {
        ProjectDocument doc;
        doc.reset(mlp(0), dir_.filePath("grow.lfproj"));
        TrainingSettingsForm form(&doc);
        QSpinBox* gpu = form.gpuMemoryLimit();
        QCOMPARE(gpu->value(), 0);
        QCOMPARE(gpu->text(), QString("Grow on demand"));
        QVERIFY(!doc.serialized().contains("gpu_memory_limit_mib"));  // the default stays out of the file

        gpu->setValue(4096);
        QCOMPARE(doc.project().training.gpu_memory_limit_mib, std::int64_t(4096));
        QCOMPARE(gpu->text(), QString("4096 MiB"));
        QVERIFY(doc.serialized().contains("\"gpu_memory_limit_mib\": 4096"));
        QCOMPARE(doc.project().training.memory_limit_mb, std::int64_t(0));  // the host limit is another setting
        doc.undoStack()->undo();
        QCOMPARE(doc.project().training.gpu_memory_limit_mib, std::int64_t(0));
        QCOMPARE(gpu->value(), 0);  // the form follows the document
        doc.undoStack()->redo();
        QCOMPARE(gpu->value(), 4096);
    }

    void theLimitIsSavedAndLoaded() {
        const QString path = dir_.filePath("limit.lfproj");
        {
            ProjectDocument doc;
            doc.reset(mlp(0), path);
            TrainingSettingsForm form(&doc);
            form.gpuMemoryLimit()->setValue(2048);
            QString error;
            QVERIFY2(doc.saveAs(path, &error), qPrintable(error));
        }
        QCOMPARE(load_project(path.toStdString()).training.gpu_memory_limit_mib, std::int64_t(2048));
        ProjectDocument doc;
        TrainingSettingsForm form(&doc);
        doc.reset(load_project(path.toStdString()), path);  // a project opened after the form exists
        QCOMPARE(form.gpuMemoryLimit()->value(), 2048);
        doc.reset(mlp(0), dir_.filePath("other.lfproj"));
        QCOMPARE(form.gpuMemoryLimit()->value(), 0);
    }
};

QTEST_MAIN(TestGpuMemorySetting)
#include "test_gpu_memory_setting.moc"
