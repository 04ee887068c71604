// The palette (categories, search, drag data), the model summary dock, the status bar totals
// (its training memory the engine's estimate) and the recent-files list.
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "document/fragment.h"
#include "document/model_stats.h"
#include "document/set_training.h"
#include "document/training_memory.h"
#include "layerforge/train/memory_budget.h"
#include "mainwindow/main_window.h"
#include "mainwindow/summary_panel.h"
#include "palette/palette_panel.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

class TestPanels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("LayerforgeTest");
        QCoreApplication::setApplicationName("test_panels");
        QSettings().clear();
    }

    void paletteGroupsAndSearch() {
        PalettePanel palette;
        QTreeWidget* tree = palette.tree();
        QStringList groups;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) groups << tree->topLevelItem(i)->text(0);
        QCOMPARE(groups.mid(0, 6), (QStringList{"Core", "Convolution", "Pooling", "Normalization", "Activation", "Merge"}));
        QVERIFY(palette.visibleTypes().contains("Dense"));
        palette.setFilter("relu");
        QStringList shown = palette.visibleTypes();
        QVERIFY(shown.contains("ReLU") && shown.contains("LeakyReLU"));
        QVERIFY(!shown.contains("Dense"));
        palette.setFilter("");
        QVERIFY(palette.visibleTypes().contains("Dense"));
    }

    void paletteDragCarriesTheType() {
        PalettePanel palette;
        QTreeWidgetItem* dense = palette.tree()->findItems("Dense", Qt::MatchExactly | Qt::MatchRecursive).value(0);
        QVERIFY(dense);
        std::unique_ptr<QMimeData> mime(palette.tree()->model()->mimeData({palette.tree()->indexFromItem(dense)}));
        QVERIFY(mime);
        QCOMPARE(mime->data(kLayerMimeType), QByteArray("Dense"));
    }

    void summaryAndStatus() {
        ProjectDocument doc;
        loadTemplate(doc);
        auto* memory = new TrainingMemoryEstimate(&doc);
        SummaryPanel summary(&doc, memory);
        summary.refresh();
        QTreeWidget* table = summary.table();
        QCOMPARE(table->topLevelItemCount(), 8);
        QCOMPARE(table->topLevelItem(0)->text(0), QString("input (Input)"));
        QCOMPARE(table->topLevelItem(2)->text(1), QString("(?, 100)"));
        QCOMPARE(table->topLevelItem(2)->text(2), QString("78,500"));
        bool totals = false;
        for (QLabel* l : summary.findChildren<QLabel*>()) totals |= l->text().startsWith("Total params: 158,010\n");
        QVERIFY(totals);
        QString status = statusSummary(doc.project(), doc.analysis(), *memory);
        QVERIFY2(status.startsWith("8 layers · 158,010 parameters · 316,140 FLOPs/sample"), qPrintable(status));
        QVERIFY(status.endsWith("at batch 50 · valid"));
    }

    // The status bar's figure is the engine's, the one `layerforge-cli info` prints, for the
    // graph being edited; it follows the batch size and is "?" for a graph that is not valid.
    void statusBarShowsTheEngineEstimate() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        QVERIFY(window.openFile(lfTemplate("fashion_cnn.lfproj")));
        TrainingMemoryEstimate* memory = window.memoryEstimate();
        QLabel* totals = nullptr;
        for (QLabel* l : window.statusBar()->findChildren<QLabel*>())
            if (l->text().contains("FLOPs/sample")) totals = l;
        QVERIFY(totals);
        auto engine = [&] { return std::int64_t(estimate_training_memory(window.document()->project()).total()); };
        QTRY_VERIFY(!memory->pending());
        QCOMPARE(memory->bytes(), std::optional<std::int64_t>(engine()));
        QVERIFY2(totals->text().contains("~" + formatBytes(engine()) + " training memory at batch 50"), qPrintable(totals->text()));
        QCOMPARE(formatBytes(engine()), QString::fromStdString(megabytes(std::size_t(engine()))));  // as `info` prints it

        TrainingConfig t = window.document()->project().training;
        t.batch_size = 100;
        window.document()->push(new SetTrainingCommand(window.document(), t, window.document()->project().dataset));
        QTRY_VERIFY(!memory->pending());
        QCOMPARE(memory->bytes(), std::optional<std::int64_t>(engine()));
        QVERIFY2(totals->text().contains("~" + formatBytes(engine()) + " training memory at batch 100"), qPrintable(totals->text()));
        auto summarised = [&] {  // the summary dock shows the same figure once it refreshes
            for (QLabel* l : window.summary()->findChildren<QLabel*>())
                if (l->text().endsWith("at batch 100: ~" + formatBytes(engine()))) return true;
            return false;
        };
        QTRY_VERIFY(summarised());

        window.document()->undoStack()->undo();  // batch 50 again: the figure is kept, not recomputed
        QVERIFY(!memory->pending());
        QVERIFY(totals->text().contains("~" + formatBytes(engine()) + " training memory at batch 50"));

        Graph g = window.document()->graph();
        g.edges.pop_back();
        window.document()->reset(Project{.name = "broken", .graph = g}, {});
        QVERIFY(!memory->pending());  // nothing to ask the engine
        QVERIFY(!memory->bytes());
        QVERIFY2(totals->text().contains("· ? training memory"), qPrintable(totals->text()));
        QSettings().remove("recentFiles");  // opening the template added it
    }

    void recentFiles() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        QVERIFY(window.openFile(lfTemplate("fashion_mlp.lfproj")));
        QVERIFY(window.openFile(lfTemplate("fashion_functional.lfproj")));
        QStringList recent = QSettings().value("recentFiles").toStringList();
        QCOMPARE(recent.size(), 2);
        QVERIFY(recent[0].endsWith("fashion_functional.lfproj"));
        QVERIFY(window.windowTitle().startsWith("fashion_functional.lfproj"));
    }
};

QTEST_MAIN(TestPanels)
#include "test_panels.moc"
