// The palette (categories, search, drag data), the model summary dock, the status bar totals
// and the recent-files list.
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "document/fragment.h"
#include "document/model_stats.h"
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
        SummaryPanel summary(&doc);
        summary.refresh();
        QTreeWidget* table = summary.table();
        QCOMPARE(table->topLevelItemCount(), 8);
        QCOMPARE(table->topLevelItem(0)->text(0), QString("input (Input)"));
        QCOMPARE(table->topLevelItem(2)->text(1), QString("(?, 100)"));
        QCOMPARE(table->topLevelItem(2)->text(2), QString("78,500"));
        bool totals = false;
        for (QLabel* l : summary.findChildren<QLabel*>()) totals |= l->text().startsWith("Total params: 158,010\n");
        QVERIFY(totals);
        QString status = statusSummary(doc.project(), doc.analysis());
        QVERIFY2(status.startsWith("8 layers · 158,010 parameters · 316,140 FLOPs/sample"), qPrintable(status));
        QVERIFY(status.endsWith("at batch 50 · valid"));
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
