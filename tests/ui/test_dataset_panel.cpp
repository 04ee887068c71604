// The Data workspace on generated image folders: class counts in the chart, thumbnails, the
// problem list, undoable binding edits, the Input-shape offer and the class-count warning; the
// chart's count axis readable at the page's size, and a bar's tool tip naming its class.
#include <QBarSet>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QBarSeries>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGraphicsTextItem>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>

#include "dataset/binding_settings.h"
#include "dataset/class_count_chart.h"
#include "dataset/dataset_panel.h"
#include "dataset/sample_grid.h"
#include "document/set_param.h"
#include "layerforge/data/binding.h"
#include "document/set_training.h"
#include "i18n/translations.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

// root/CLASS/i.png: tiny 8x6 RGB images, `counts` per class.
void writeImages(const QString& root, const QMap<QString, int>& counts) {
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        QVERIFY(QDir().mkpath(root + "/" + it.key()));
        for (int i = 0; i < it.value(); ++i) {
            QImage img(8, 6, QImage::Format_RGB888);
            img.fill(QColor(40 * i, 100, 200 - 30 * i));
            QVERIFY(img.save(QString("%1/%2/%3.png").arg(root, it.key()).arg(i)));
        }
    }
}

QString writeCorrupt(const QString& path) {
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write("this is not a PNG at all");
    return path;
}

QList<qreal> values(QBarSet* set) {
    QList<qreal> out;
    for (int i = 0; i < set->count(); ++i) out << set->at(i);
    return out;
}

void bindFolder(ProjectDocument& doc, const QString& root) {
    DatasetBinding b = doc.project().dataset;
    b.kind = "image-folder", b.path = root.toStdString();
    doc.push(new SetTrainingCommand(&doc, doc.project().training, b));
    doc.undoStack()->clear();
}

// The panel inspects when shown; hidden ones are asked explicitly.
bool waitForSummary(DatasetPanel& panel) {
    QSignalSpy ready(&panel, &DatasetPanel::summaryReady);
    if (panel.isStale()) panel.inspectNow();
    return panel.isLoading() ? ready.wait(20000) : true;
}

IntList inputShapeOf(const ProjectDocument& doc) { return std::get<IntList>(doc.graph().find("input")->params.at("shape")); }

}  // namespace

class TestDatasetPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        root_ = dir_->path() + "/pets";
        writeImages(root_, {{"cat", 3}, {"dog", 2}, {"fox", 4}});
        corrupt_ = writeCorrupt(root_ + "/dog/broken.png");
        loadTemplate(doc_, "fashion_cnn.lfproj");
        bindFolder(doc_, root_);
    }

    void chartSamplesProblemsAndStatistics() {
        DatasetPanel panel(&doc_);
        QVERIFY(panel.isStale() && !panel.isLoading());  // nothing decoded while the page is hidden
        panel.show();
        QVERIFY(panel.isLoading());
        QVERIFY(waitForSummary(panel));
        QVERIFY2(panel.summary().ok(), qPrintable(panel.summary().error));
        QCOMPARE(panel.summary().classes, (QStringList{"cat", "dog", "fox"}));
        QBarSeries* series = panel.chart()->series();
        QVERIFY(series);
        QCOMPARE(series->count(), 1);
        QCOMPARE(series->barSets()[0]->label(), QString("train"));
        QCOMPARE(values(series->barSets()[0]), (QList<qreal>{3, 2, 4}));  // the corrupt file is not counted

        QTRY_COMPARE_WITH_TIMEOUT(panel.samples()->thumbnailCount(), 9, 10000);
        QCOMPARE(panel.samples()->count(), 9);
        QCOMPARE(panel.samples()->item(0)->text(), QString("cat"));
        QCOMPARE(panel.samples()->item(8)->text(), QString("fox"));

        QCOMPARE(panel.problems()->count(), 1);
        QVERIFY2(panel.problems()->item(0)->text().startsWith(corrupt_), qPrintable(panel.problems()->item(0)->text()));
        QVERIFY(panel.statistics()->text().contains("8x6 (9)"));
        QVERIFY(panel.statistics()->text().contains("RGB (9)"));
    }

    // "Validate on: Test split" for a folder without test/ validates on nothing: the page says so,
    // and stops once there is a test split or another choice.
    void testSplitValidationWithoutTestFolderIsReported() {
        DatasetBinding b = doc_.project().dataset;
        b.validation = "test";
        doc_.push(new SetTrainingCommand(&doc_, doc_.project().training, b));
        DatasetPanel panel(&doc_);
        panel.show();
        QVERIFY(waitForSummary(panel));
        QVERIFY(panel.validationMessage()->isVisible());
        QVERIFY2(panel.validationMessage()->text().contains("no test/ folder") &&
                     panel.validationMessage()->text().contains(root_),
                 qPrintable(panel.validationMessage()->text()));
        b.validation = "split";
        b.validation_split = 0.2;
        doc_.push(new SetTrainingCommand(&doc_, doc_.project().training, b));
        QVERIFY(panel.validationMessage()->isHidden());

        const QString split = dir_->path() + "/withtest";
        writeImages(split + "/train", {{"a", 2}, {"b", 2}});
        writeImages(split + "/test", {{"a", 1}, {"b", 1}});
        b.kind = "image-folder", b.path = split.toStdString(), b.validation = "test";
        doc_.push(new SetTrainingCommand(&doc_, doc_.project().training, b));
        QVERIFY(waitForSummary(panel));
        QVERIFY(panel.validationMessage()->isHidden());
    }

    void splitFoldersGiveOneBarSetPerSplit() {
        const QString split = dir_->path() + "/split";
        writeImages(split + "/train", {{"a", 3}, {"b", 1}});
        writeImages(split + "/test", {{"a", 1}, {"b", 2}});
        bindFolder(doc_, split);
        DatasetPanel panel(&doc_);
        QVERIFY(waitForSummary(panel));
        const QList<QBarSet*> sets = panel.chart()->series()->barSets();
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets[0]->label(), QString("train"));
        QCOMPARE(values(sets[0]), (QList<qreal>{3, 1}));
        QCOMPARE(sets[1]->label(), QString("test"));
        QCOMPARE(values(sets[1]), (QList<qreal>{1, 2}));
    }

    void bindingAnotherFolderIsUndoableAndReinspects() {
        const QString other = dir_->path() + "/other";
        writeImages(other, {{"x", 1}, {"y", 1}});
        DatasetPanel panel(&doc_);
        QVERIFY(waitForSummary(panel));
        panel.bindImageFolder(other);
        QCOMPARE(QString::fromStdString(doc_.project().dataset.path), other);
        QVERIFY(waitForSummary(panel));
        QCOMPARE(panel.summary().classes, (QStringList{"x", "y"}));
        doc_.undoStack()->undo();
        QCOMPARE(QString::fromStdString(doc_.project().dataset.path), root_);
        QVERIFY(waitForSummary(panel));
        QCOMPARE(panel.summary().classes.size(), 3);
    }

    void validationSplitIsAnUndoableEdit() {
        DatasetPanel panel(&doc_);
        BindingSettings* s = panel.settings();
        QCOMPARE(s->validation()->currentData().toString(), QString("test"));
        QVERIFY(!s->fraction()->isEnabled());
        const int before = doc_.undoStack()->count();
        s->validation()->setCurrentIndex(s->validation()->findData("split"));
        QCOMPARE(doc_.undoStack()->count(), before + 1);
        QCOMPARE(doc_.project().dataset.validation, std::string("split"));
        QCOMPARE(doc_.project().dataset.validation_split, 0.1);
        QVERIFY(s->fraction()->isEnabled());
        s->fraction()->setValue(0.25);
        s->seed()->setValue(7);
        QCOMPARE(doc_.project().dataset.validation_split, 0.25);
        QCOMPARE(doc_.project().training.seed, std::int64_t(7));
        doc_.undoStack()->undo();  // consecutive settings edits merge into one step
        QCOMPARE(doc_.project().dataset.validation, std::string("test"));
        QCOMPARE(doc_.project().training.seed, std::int64_t(42));
        QCOMPARE(s->validation()->currentData().toString(), QString("test"));  // the widgets follow the document
        QCOMPARE(s->seed()->value(), 42);
        doc_.undoStack()->redo();
        QCOMPARE(s->fraction()->value(), 0.25);
    }

    void augmentationSettingsReachTheBinding() {
        DatasetPanel panel(&doc_);
        BindingSettings* s = panel.settings();
        s->flip()->setChecked(true);
        s->rotate()->setValue(15);
        s->resize()->setCurrentIndex(s->resize()->findData("pad"));
        const Params& image = doc_.project().dataset.image;
        QCOMPARE(std::get<bool>(image.at("flip")), true);
        QCOMPARE(std::get<double>(image.at("rotate")), 15.0);
        QCOMPARE(std::get<std::string>(image.at("resize")), std::string("pad"));
        QVERIFY(!image.count("translate"));  // defaults stay out of the file
        const auto spec = sample_spec(doc_.project().dataset, Shape{28, 28, 1});  // the engine accepts them
        QVERIFY(spec.resize == ResizeMode::Pad);
        doc_.undoStack()->undo();
        QVERIFY(doc_.project().dataset.image.empty());
        QVERIFY(!s->flip()->isChecked());
    }

    void inputFollowsTheDatasetShape() {
        DatasetPanel panel(&doc_);
        QVERIFY(waitForSummary(panel));
        QVERIFY(!panel.inputShapeMessage()->isHidden());
        QVERIFY(panel.inputShapeMessage()->text().contains("(6, 8, 3)"));
        QVERIFY(panel.inputShapeMessage()->text().contains("(28, 28, 1)"));
        QCOMPARE(inputShapeOf(doc_), (IntList{28, 28, 1}));
        QVERIFY(panel.modelInput()->text().contains("(28, 28, 1)"));
        panel.applyInputShapeButton()->click();
        QCOMPARE(inputShapeOf(doc_), (IntList{6, 8, 3}));
        QVERIFY(panel.modelInput()->text().contains("(6, 8, 3)"));
        QVERIFY(panel.inputShapeMessage()->isHidden());
        QVERIFY(panel.applyInputShapeButton()->isHidden());
        doc_.undoStack()->undo();
        QCOMPARE(inputShapeOf(doc_), (IntList{28, 28, 1}));
        QVERIFY(!panel.inputShapeMessage()->isHidden());
    }

    void lastDenseIsCheckedAgainstTheClassCount() {
        DatasetPanel panel(&doc_);
        QVERIFY(waitForSummary(panel));
        QLabel* warning = panel.classCountMessage();
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains("'dense2'") && warning->text().contains("10 units") &&
                     warning->text().contains("3 classes"),
                 qPrintable(warning->text()));
        doc_.push(new SetParamCommand(&doc_, "dense2", "units", ParamValue(std::int64_t(3))));
        QVERIFY(warning->isHidden());
        doc_.undoStack()->undo();
        QVERIFY(!warning->isHidden());
    }

    void installedFashionMnist() {
        DatasetPanel panel(&doc_);
        panel.bindFashionMnist();
        QCOMPARE(doc_.project().dataset.kind, std::string("fashion-mnist"));
        QVERIFY(waitForSummary(panel));
        QVERIFY2(panel.summary().ok(), qPrintable(panel.summary().error));
        const QList<QBarSet*> sets = panel.chart()->series()->barSets();
        QCOMPARE(sets.size(), 2);
        QCOMPARE(values(sets[0]), QList<qreal>(10, 6000));
        QCOMPARE(values(sets[1]), QList<qreal>(10, 1000));
        // The count axis at the Data page's size on a 1366 x 768 screen: three round ticks
        // whose labels are drawn whole (Qt's default five were all elided to "...").
        panel.resize(1229, 560);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* counts = qobject_cast<QValueAxis*>(panel.chart()->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(counts);
        QCOMPARE(counts->min(), 0.0);
        QCOMPARE(counts->max(), 6000.0);
        QCOMPARE(counts->tickCount(), 3);
        QStringList shown;
        for (QGraphicsItem* item : panel.chart()->scene()->items())
            if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible()) shown << text->toPlainText();
        for (const char* label : {"0", "3000", "6000"}) QVERIFY2(shown.contains(label), qPrintable(shown.join(" | ")));
        // A bar's tool tip names its class, which the axis may elide (English plural forms, as the studio loads them).
        QVERIFY(!installTranslations("en").isEmpty());
        auto untranslate = qScopeGuard([] { removeTranslations(); });
        QCOMPARE(ClassCountChart::barToolTip("Bag", "test", 1), QString("Bag (test): 1 image"));
        ClassCountChart* chart = panel.chart();
        Q_EMIT chart->series()->hovered(true, 0, sets[0]);
        QCOMPARE(chart->hoverText(), QString("T-shirt/top (train): 6,000 images"));
        const QPoint at = chart->viewport()->rect().center();
        QHelpEvent help(QEvent::ToolTip, at, chart->viewport()->mapToGlobal(at));
        QApplication::sendEvent(chart->viewport(), &help);
        QTRY_COMPARE(QToolTip::text(), QString("T-shirt/top (train): 6,000 images"));  // the scene does not hide it
        Q_EMIT chart->series()->hovered(false, 0, sets[0]);
        QVERIFY(chart->hoverText().isEmpty());
        QCOMPARE(panel.samples()->thumbnailCount(), 10 * kSamplesPerClass);  // in memory: no decoding
        QCOMPARE(panel.samples()->item(0)->text(), QString("T-shirt/top"));
        QVERIFY(panel.inputShapeMessage()->isHidden());  // the CNN takes (28, 28, 1)
        QVERIFY(panel.classCountMessage()->isHidden());  // and has 10 output units
        QVERIFY(!panel.settings()->resize()->parentWidget()->isEnabled());  // pipeline settings are for folders
    }

    void cleanup() {
        doc_.reset({}, {});
        dir_.reset();
    }

private:
    std::unique_ptr<QTemporaryDir> dir_;
    ProjectDocument doc_;
    QString root_, corrupt_;
};

QTEST_MAIN(TestDatasetPanel)
#include "test_dataset_panel.moc"
