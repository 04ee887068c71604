// The precision policy in the studio: the Train page's Precision choice is the project's
// training.precision (an undoable edit the form follows), the Model summary dock shows the type
// each layer computes in under it and the memory estimate follows it (both from the engine, off
// the UI thread), and a run started there trains in it and records it. Needs a CPU with bfloat16
// instructions (test_precision_unavailable covers the others).
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "bf16_cpu.h"
#include "document/project_document.h"
#include "document/training_memory.h"
#include "graph_builder.h"
#include "layerforge/devices/devices.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/memory_budget.h"
#include "mainwindow/main_window.h"
#include "mainwindow/summary_panel.h"
#include "session/studio_session.h"
#include "training/training_panel.h"
#include "training/training_settings_form.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

// The tutorial MLP on a slice of Fashion-MNIST: node ids input_0 ... softmax_4.
Project smallMlp() {
    Project p;
    p.name = "precision";
    p.graph = mlp_builder().graph;
    p.dataset.limit_train = 200;
    p.dataset.limit_test = 50;
    p.training.batch_size = 50;
    p.training.epochs = 1;
    return p;
}

QString computeOf(SummaryPanel* summary, const QString& row) {
    for (int i = 0; i < summary->table()->topLevelItemCount(); ++i)
        if (summary->table()->topLevelItem(i)->text(0) == row) return summary->table()->topLevelItem(i)->text(4);
    return "(no row " + row + ")";
}

}  // namespace

class TestPrecisionChoice : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

public:
    static void initMain() { lf_test::skip_suite_without_bf16(); }  // test_precision_unavailable covers the rest

private Q_SLOTS:

    void theChoiceIsTheProjectSettingAndUndoable() {
        MainWindow window(dir_.filePath("r1.lfproj"), 3600000);
        window.document()->reset(smallMlp(), dir_.filePath("choice.lfproj"));
        auto* form = window.findChild<TrainingSettingsForm*>();
        QVERIFY(form);
        QComboBox* choice = form->precision();
        QCOMPARE(choice->count(), 3);
        QCOMPARE(choice->currentData().toString(), QString("float32"));
        auto* items = qobject_cast<QStandardItemModel*>(choice->model());
        QVERIFY(items->item(0)->isEnabled() && items->item(1)->isEnabled());
        // mixed_float16 is for GPUs: disabled on the CPU with the reason as its tooltip, but no
        // note beside the choice while a mixed policy is left (mixed_bfloat16).
        const int f16 = choice->findData("mixed_float16");
        QVERIFY(f16 >= 0 && !items->item(f16)->isEnabled());
        QVERIFY(choice->itemData(f16, Qt::ToolTipRole).toString().contains("no float16 kernels"));
        QVERIFY(form->precisionNote()->isHidden());

        choice->setCurrentIndex(choice->findData("mixed_bfloat16"));
        QCOMPARE(window.document()->project().training.precision, Precision::MixedBFloat16);
        QVERIFY(window.document()->serialized().contains("\"precision\": \"mixed_bfloat16\""));
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->project().training.precision, Precision::Float32);
        QCOMPARE(choice->currentData().toString(), QString("float32"));  // the form follows the document
        window.document()->undoStack()->redo();
        QCOMPARE(choice->currentData().toString(), QString("mixed_bfloat16"));
        // A project that says mixed_float16 keeps it selected, and the note says why it cannot run here.
        choice->setCurrentIndex(f16);
        QCOMPARE(window.document()->project().training.precision, Precision::MixedFloat16);
        QVERIFY(!form->precisionNote()->isHidden());
        QVERIFY2(form->precisionNote()->text().contains("mixed_float16 is not available on cpu"),
                 qPrintable(form->precisionNote()->text()));
    }

    void theSummaryDockAndTheEstimateFollowThePolicy() {
        MainWindow window(dir_.filePath("r2.lfproj"), 3600000);
        window.document()->reset(smallMlp(), dir_.filePath("summary.lfproj"));
        TrainingMemoryEstimate* memory = window.memoryEstimate();
        SummaryPanel* summary = window.summary();
        QTRY_VERIFY(!memory->pending());
        QTRY_COMPARE(computeOf(summary, "dense_2 (Dense)"), QString("float32"));
        const std::int64_t f32 = *memory->bytes();
        QCOMPARE(f32, std::int64_t(estimate_training_memory(window.document()->project()).total()));

        window.findChild<TrainingSettingsForm*>()->precision()->setCurrentIndex(1);  // mixed_bfloat16
        QCOMPARE(window.document()->project().training.precision, Precision::MixedBFloat16);
        QTRY_VERIFY(!memory->pending());
        QTRY_COMPARE(computeOf(summary, "dense_2 (Dense)"), QString("bfloat16"));
        // The engine's figure under the policy (bfloat16 activations, and the weights' bfloat16 copies).
        QVERIFY(memory->bytes() && *memory->bytes() != f32);
        QCOMPARE(*memory->bytes(), std::int64_t(estimate_training_memory(window.document()->project()).total()));
        QVERIFY2(summary->precision()->text().startsWith("Precision: mixed_bfloat16 ("), qPrintable(summary->precision()->text()));
        QVERIFY(summary->precision()->text().contains("layers compute in bfloat16"));

        window.document()->undoStack()->undo();  // back to float32: the figures kept, not recomputed
        QVERIFY(!memory->pending());
        QCOMPARE(*memory->bytes(), f32);
        QTRY_COMPARE(computeOf(summary, "dense_2 (Dense)"), QString("float32"));
    }

    void aRunStartedThereTrainsInThePolicyAndRecordsIt() {
        MainWindow window(dir_.filePath("r3.lfproj"), 3600000);
        Project p = smallMlp();
        p.training.precision = Precision::MixedBFloat16;
        window.document()->reset(p, dir_.filePath("run.lfproj"));
        TrainingController* controller = window.findChild<TrainingPanel*>()->controller();
        QSignalSpy finished(controller, &TrainingController::finished);
        QVERIFY(controller->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished[0][0].value<RunStatus>(), RunStatus::Finished);
        RunStore store(window.session()->storePath().toStdString(), false);
        QCOMPARE(run_precision(store.run(controller->runId())), Precision::MixedBFloat16);
    }
};

QTEST_MAIN(TestPrecisionChoice)
#include "test_precision_choice.moc"
