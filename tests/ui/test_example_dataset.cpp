// The built-in example: Fashion-MNIST imported to an image folder on first use (off the UI
// thread, with progress), reused on later starts, and bound to the tutorial CNN.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "dataset/example_dataset.h"
#include "dataset/example_project.h"
#include "document/project_document.h"
#include "layerforge/data/dataset.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

constexpr qint64 kTrain = 300, kTest = 100;  // a slice keeps the test fast

int pngCount(const QString& dir) {
    return int(QDir(dir).entryList({"*.png"}, QDir::Files).size());
}

}  // namespace

class TestExampleDataset : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.path() + "/datasets/fashion-mnist";
    }

    void defaultLocationIsPerUser() {
        QVERIFY(defaultExampleDatasetDir().endsWith("/datasets/fashion-mnist"));
        QVERIFY(defaultExampleDatasetDir().startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }

    void firstUseImportsTenClassesWithTheRightCounts() {
        ExampleDataset data(path_);
        data.setLimits(kTrain, kTest);
        QVERIFY(!data.isComplete());
        QSignalSpy ready(&data, &ExampleDataset::ready), progress(&data, &ExampleDataset::progress);
        data.prepare();
        QVERIFY(data.isImporting());  // the work is on a worker thread: prepare() returned at once
        QVERIFY(ready.wait(20000));
        QCOMPARE(ready.first().first().toString(), path_);
        QVERIFY(data.importedThisTime());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toLongLong(), kTrain + kTest);
        QCOMPARE(progress.last().at(1).toLongLong(), kTrain + kTest);

        const QStringList classes = data.classFolders();
        QCOMPARE(classes.size(), 10);
        QCOMPARE(classes.first(), QString("0_T-shirt-top"));
        QCOMPARE(QDir(path_ + "/train").entryList(QDir::Dirs | QDir::NoDotAndDotDot), classes);
        const DatasetSplits expected = load_fashion_mnist({}, kTrain, kTest);
        for (const auto& [split, tensors] : {std::pair{"train", &expected.train}, std::pair{"test", &expected.test}}) {
            std::vector<int> counts(10, 0);
            for (std::int32_t l : tensors->labels) ++counts[std::size_t(l)];
            for (int c = 0; c < 10; ++c)
                QCOMPARE(pngCount(path_ + "/" + split + "/" + classes[c]), counts[std::size_t(c)]);
        }
        QVERIFY(!QFileInfo::exists(path_ + ".importing"));
    }

    void laterStartsReuseTheFolder() {
        const QString marker = path_ + "/.layerforge-import.json";
        const QDateTime written = QFileInfo(marker).lastModified();
        QVERIFY(written.isValid());
        ExampleDataset data(path_);
        data.setLimits(kTrain, kTest);
        QVERIFY(data.isComplete());
        QSignalSpy ready(&data, &ExampleDataset::ready), progress(&data, &ExampleDataset::progress);
        data.prepare();
        QVERIFY(!data.isImporting());
        QVERIFY(ready.wait(2000));
        QVERIFY(!data.importedThisTime());
        QVERIFY(progress.isEmpty());
        QCOMPARE(QFileInfo(marker).lastModified(), written);
    }

    void exampleProjectIsTheCnnBoundToTheFolder() {
        ProjectDocument doc;
        ExampleDataset data(path_);
        data.setLimits(kTrain, kTest);
        QSignalSpy ready(&data, &ExampleDataset::ready);
        QString error;
        QVERIFY2(openExampleProject(&doc, lfTemplate("fashion_cnn.lfproj"), &data, nullptr, &error), qPrintable(error));
        QVERIFY(doc.graph().find("conv1") && doc.graph().find("dense2"));
        QVERIFY(doc.fileName().isEmpty());  // Save asks where: the template is never overwritten
        QVERIFY(ready.wait(2000));
        const DatasetBinding& b = doc.project().dataset;
        QCOMPARE(b.kind, std::string("image-folder"));
        QCOMPARE(QString::fromStdString(b.path), path_);
        QCOMPARE(b.validation, std::string("test"));
        QCOMPARE(b.classes.size(), std::size_t(10));
        QVERIFY(!doc.isModified());  // ready to train, nothing to save yet
        QVERIFY(doc.analysis().ok());
    }

    void firstUseShowsANonModalProgressDialog() {
        ProjectDocument doc;
        QWidget window;
        window.show();
        ExampleDataset data(dir_.path() + "/with-dialog");
        data.setLimits(kTrain, kTest);
        QSignalSpy ready(&data, &ExampleDataset::ready);
        QString error;
        QVERIFY(openExampleProject(&doc, lfTemplate("fashion_cnn.lfproj"), &data, &window, &error));
        QPointer<QProgressDialog> dialog = window.findChild<QProgressDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!QApplication::activeModalWidget());  // the studio stays usable meanwhile
        QCOMPARE(doc.project().dataset.kind, std::string("fashion-mnist"));  // in memory until the folder is ready
        QVERIFY(ready.wait(20000));
        QTRY_VERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(doc.project().dataset.kind, std::string("image-folder"));
    }

    void differentLimitsImportAgain() {
        ExampleDataset data(path_);
        data.setLimits(50, 20);
        QVERIFY(!data.isComplete());
        QSignalSpy ready(&data, &ExampleDataset::ready);
        data.prepare();
        QVERIFY(ready.wait(20000));
        QVERIFY(data.importedThisTime());
        int train = 0;
        for (QDirIterator it(path_ + "/train", {"*.png"}, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); it.next()) ++train;
        QCOMPARE(train, 50);  // the earlier, larger import was replaced, not merged
    }

    void missingSourceFailsWithAMessage() {
        ExampleDataset data(dir_.path() + "/elsewhere");
        data.setSourceDir(dir_.path() + "/no-idx-here");
        QSignalSpy failed(&data, &ExampleDataset::failed);
        data.prepare();
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().first().toString().contains("dataset-fashion-mnist"), qPrintable(failed.first().first().toString()));
        QVERIFY(!QFileInfo::exists(dir_.path() + "/elsewhere"));
    }

    void closingDuringTheImportCancelsIt() {
        const QString dir = dir_.path() + "/cancelled";
        QElapsedTimer timer;
        timer.start();
        {
            ExampleDataset data(dir);  // all 70,000 images: minutes, unless cancelled
            QSignalSpy progress(&data, &ExampleDataset::progress);
            data.prepare();
            QVERIFY(progress.wait(20000));
        }
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!QFileInfo::exists(dir));  // only a finished import takes the final name
    }

private:
    QTemporaryDir dir_;
    QString path_;
};

QTEST_MAIN(TestExampleDataset)
#include "test_example_dataset.moc"
