// On a CPU without bfloat16 instructions the Train page shows mixed_bfloat16 disabled, with the
// engine's reason as its tooltip and beside the choice; float32 stays available and selected.
// CTest runs this with DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI (tests/CMakeLists.txt).
#include <QComboBox>
#include <QLabel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include "bf16_cpu.h"
#include "mainwindow/main_window.h"
#include "training/training_settings_form.h"

using namespace lf::ui;

class TestPrecisionUnavailable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(lf_test::bf16_capped(), "run under CTest, which sets DNNL_MAX_CPU_ISA=AVX512_CORE_VNNI");
    }

    void mixedIsDisabledWithTheReason() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"), 3600000);
        auto* form = window.findChild<TrainingSettingsForm*>();
        QVERIFY(form);
        QComboBox* choice = form->precision();
        auto* items = qobject_cast<QStandardItemModel*>(choice->model());
        const int mixed = choice->findData("mixed_bfloat16"), f32 = choice->findData("float32");
        QVERIFY(mixed >= 0 && f32 >= 0);
        QVERIFY(!items->item(mixed)->isEnabled());
        QVERIFY(items->item(f32)->isEnabled());
        QCOMPARE(choice->currentIndex(), f32);
        const QString tip = choice->itemData(mixed, Qt::ToolTipRole).toString();
        QVERIFY2(lf_test::names_the_missing_bf16(tip.toStdString()), qPrintable(tip));
        QVERIFY(!form->precisionNote()->isHidden());  // shown with the Train page
        QVERIFY2(form->precisionNote()->text().contains("mixed_bfloat16 is not available on cpu: " + tip),
                 qPrintable(form->precisionNote()->text()));
        QVERIFY(choice->itemData(f32, Qt::ToolTipRole).toString().isEmpty());
    }
};

QTEST_MAIN(TestPrecisionUnavailable)
#include "test_precision_unavailable.moc"
