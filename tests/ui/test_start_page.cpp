// The start page (recent projects, templates with a picture and a line, the ways in) and
// Analyze Network on real graphs, driven through the main window's widgets offscreen.
#include <QCheckBox>
#include <QFileDialog>
#include <QLabel>
#include <QSignalSpy>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

#include "analysis/layer_cost_model.h"
#include "analysis/network_report_dialog.h"
#include "dataset/dataset_panel.h"
#include "document/add_nodes.h"
#include "document/fragment.h"
#include "document/project_document.h"
#include "mainwindow/main_window.h"
#include "start/start_page.h"
#include "image_folder_fixture.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

// Answers the next file dialog with `path` once it is shown.
void answerFileDialog(const QString& path) {
    QTimer::singleShot(0, [path] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");  // protected in QFileDialog, a slot of QDialog
    });
}

QStringList problemTexts(const NetworkReportDialog& d) {
    QStringList out;
    for (int i = 0; i < d.problems()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = d.problems()->topLevelItem(i);
        out << item->text(0) + "|" + item->text(1) + "|" + item->text(2);
    }
    return out;
}

bool anyContains(const QStringList& list, const QString& a, const QString& b) {
    for (const QString& s : list)
        if (s.contains(a) && s.contains(b)) return true;
    return false;
}

const char* kKerasMlp = R"({"class_name": "Sequential", "config": {"name": "seq", "layers": [
  {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 12], "name": "in"}},
  {"class_name": "Dense", "config": {"name": "hidden", "units": 5, "activation": "relu"}},
  {"class_name": "Dense", "config": {"name": "out", "units": 3, "activation": "softmax"}}]}})";

}  // namespace

class TestStartPage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString saveTemplateCopy(MainWindow& w, const char* name, const QString& as) {
        loadTemplate(*w.document(), name);
        const QString path = dir_.filePath(as);
        if (!w.saveTo(path)) return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QSettings().clear();
        qputenv("LF_TEMPLATE_DIR", lfTemplate("").toUtf8());
    }

    void recentProjectsAreListedAndOpen() {
        MainWindow w(dir_.filePath("recovery1.lfproj"), 3600000);
        const QString mlp = saveTemplateCopy(w, "fashion_mlp.lfproj", "mlp.lfproj");
        const QString cnn = saveTemplateCopy(w, "fashion_cnn.lfproj", "cnn.lfproj");
        QVERIFY(!mlp.isEmpty() && !cnn.isEmpty());
        QSettings().setValue("recentFiles", QStringList{cnn, dir_.filePath("gone.lfproj"), mlp});
        w.document()->reset(Project{}, {});
        w.show();
        StartPage* page = w.showStartPage();
        QVERIFY(page->isVisible());
        QListWidget* recent = page->recentList();
        QCOMPARE(recent->count(), 2);  // the missing file is left out, the order kept
        QCOMPARE(recent->item(0)->text(), QString("cnn"));
        QCOMPARE(recent->item(1)->data(StartPage::PathRole).toString(), mlp);
        Q_EMIT recent->itemActivated(recent->item(1));
        QVERIFY(!page->isVisible());
        QCOMPARE(w.document()->fileName(), mlp);
        QCOMPARE(w.document()->project().graph, load_project(mlp.toStdString()).graph);
    }

    void templatesHaveAPictureAndALineAndStartAnUntitledCopy() {
        MainWindow w(dir_.filePath("recovery2.lfproj"), 3600000);
        w.show();
        StartPage* page = w.showStartPage();
        QListWidget* templates = page->templateList();
        const QStringList files = QDir(lfTemplate("")).entryList({"*.lfproj"}, QDir::Files, QDir::Name);
        QCOMPARE(templates->count(), files.size());
        int cnn = -1;
        for (int i = 0; i < templates->count(); ++i) {
            QListWidgetItem* item = templates->item(i);
            QVERIFY(!item->icon().isNull());
            QVERIFY2(item->text().contains("parameters"), qPrintable(item->text()));  // the one line
            if (item->text().startsWith("fashion_cnn\n")) cnn = i;
        }
        QVERIFY(cnn >= 0);
        QVERIFY(templates->item(cnn)->text().contains("Input (?, 28, 28, 1)"));
        const QImage picture = templates->item(cnn)->icon().pixmap(QSize(168, 84)).toImage();
        QSet<QRgb> colours;
        for (int y = 0; y < picture.height(); y += 2)
            for (int x = 0; x < picture.width(); x += 2) colours.insert(picture.pixel(x, y));
        QVERIFY2(colours.size() >= 3, "the picture shows cards of several categories on a background");
        Q_EMIT templates->itemActivated(templates->item(cnn));
        QVERIFY(w.document()->fileName().isEmpty());  // a copy: Save asks for a name
        QVERIFY(w.document()->project().graph.find("conv1"));
    }

    void blankImportAndImageFolderActionsWork() {
        MainWindow w(dir_.filePath("recovery3.lfproj"), 3600000);
        w.show();
        loadTemplate(*w.document(), "fashion_mlp.lfproj");
        StartPage* page = w.showStartPage();
        for (const char* name : {"blank", "open", "example", "import", "imageFolder"}) QVERIFY(page->button(name));
        page->button("blank")->click();
        QVERIFY(w.document()->project().graph.nodes.empty());

        const QString keras = dir_.filePath("mlp.json");
        QFile f(keras);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kKerasMlp);
        f.close();
        page = w.showStartPage();
        answerFileDialog(keras);
        page->button("import")->click();
        QVERIFY(w.document()->project().graph.find("hidden"));
        QVERIFY(w.document()->project().graph.find("out"));

        w.document()->reset(Project{}, {});
        const QString images = dir_.filePath("images");
        writeImageFolder(images);
        page = w.showStartPage();
        answerFileDialog(images);
        page->button("imageFolder")->click();
        const Project& p = w.document()->project();
        QCOMPARE(p.dataset.kind, std::string("image-folder"));
        QCOMPARE(QString::fromStdString(p.dataset.path), images);
        QVERIFY(!p.graph.nodes.empty());  // an empty project starts from the image template
        QCOMPARE(w.workspaces()->currentWidget(), w.findChild<DatasetPanel*>());
    }

    void theStartPageCanBeTurnedOff() {
        StartPage::setShowAtStart(true);
        StartPage page({}, lfTemplate(""));
        auto* box = page.findChild<QCheckBox*>();
        QVERIFY(box && box->isChecked());
        box->setChecked(false);
        QVERIFY(!StartPage::showAtStart());
        QCOMPARE(page.recentList()->count(), 1);  // "No recent projects", not selectable
        QCOMPARE(page.recentList()->item(0)->flags(), Qt::NoItemFlags);
        StartPage::setShowAtStart(true);
    }

    void analysisReportsCostsErrorsAndWarnings() {
        MainWindow w(dir_.filePath("recovery4.lfproj"), 3600000);
        w.show();
        loadTemplate(*w.document(), "fashion_mlp.lfproj");
        Project p = w.document()->project();
        p.training.batch_size = 50;
        w.document()->reset(p, {});
        NetworkReportDialog* d = w.showNetworkReport();
        QVERIFY(d->isVisible());
        QCOMPARE(problemTexts(*d), QStringList{"OK||No problems found."});
        // The hidden Dense of the tutorial MLP: 784 x 100 + 100 parameters, 2 x 784 x 100 FLOPs,
        // 50 x 100 floats of output.
        LayerCostModel* costs = d->costs();
        int hidden = -1;
        for (int r = 0; r < costs->rowCount(); ++r)
            if (costs->row(r).params == 78500) hidden = r;
        QVERIFY(hidden >= 0);
        auto cell = [&](int row, int column) { return costs->data(costs->index(row, column), Qt::DisplayRole).toString(); };
        QCOMPARE(cell(hidden, LayerCostModel::Params), QString("78,500"));
        QCOMPARE(costs->data(costs->index(hidden, LayerCostModel::Flops), LayerCostModel::SortRole).toLongLong(), 156800LL);
        QCOMPARE(cell(hidden, LayerCostModel::Activations), QString("20.0 kB"));
        QCOMPARE(cell(hidden, LayerCostModel::Output), QString("(?, 100)"));
        // Sorted by parameters, largest first, through the table's header.
        d->layers()->sortByColumn(LayerCostModel::Params, Qt::DescendingOrder);
        QCOMPARE(d->layers()->model()->index(0, LayerCostModel::Params).data().toString(), QString("78,500"));
        QVERIFY(d->summary()->text().startsWith("0 errors, 0 warnings"));

        // A dangling Dense and a loss that wants probabilities from logits: the open report follows.
        Graph extra;
        extra.nodes.push_back(newLayerNode(*w.document(), "Dense", QPointF(0, 0)));
        const std::string dangling = extra.nodes[0].id;
        w.document()->push(new AddNodesCommand(w.document(), std::move(extra), "add"));
        const QStringList problems = problemTexts(*d);
        QVERIFY2(anyContains(problems, "Error|" + QString::fromStdString(dangling), "needs an input"), qPrintable(problems.join('\n')));
        QVERIFY(anyContains(problems, "Error|", "exactly one output"));
        QVERIFY(d->summary()->text().contains("warnings"));
        QVERIFY(!d->summary()->text().startsWith("0 errors"));

        // Double-clicking a problem selects its layer on the canvas.
        QSignalSpy activated(d, &NetworkReportDialog::layerActivated);
        for (int i = 0; i < d->problems()->topLevelItemCount(); ++i)
            if (d->problems()->topLevelItem(i)->text(1) == QString::fromStdString(dangling)) {
                Q_EMIT d->problems()->itemDoubleClicked(d->problems()->topLevelItem(i), 0);
                break;
            }
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated[0][0].toString(), QString::fromStdString(dangling));
    }

    void analysisWarnsOfLogitsWithAProbabilityLoss() {
        MainWindow w(dir_.filePath("recovery5.lfproj"), 3600000);
        Project p = tinyImageProject(dir_.filePath("images"), 1);
        p.graph.nodes.pop_back();  // no Softmax: the Dense's logits are the output
        p.graph.edges.pop_back();
        w.document()->reset(p, {});
        NetworkReportDialog* d = w.showNetworkReport();
        QVERIFY(anyContains(problemTexts(*d), "Warning|dense", "expects probabilities"));
        QCOMPARE(d->report().warnings.size(), std::size_t(1));
    }
};

QTEST_MAIN(TestStartPage)
#include "test_start_page.moc"
