// The Evaluate workspace on a generated image folder (8x8 gray PNGs, classes "dark" and
// "light", 5 + 5 test images) with hand-set weights that call every image "dark", more surely
// the darker it is: the confusion matrix, per-class scores, the misclassified grid sorted by
// confidence with probabilities on click, and an image file dropped on a window predicted.
#include <QDir>
#include <QDropEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUrl>
#include <QtTest>

#include "document/project_document.h"
#include "evaluation/confusion_model.h"
#include "evaluation/evaluation_view.h"
#include "graph_builder.h"
#include "layerforge/data/image.h"
#include "layerforge/store/weights_file.h"
#include "session/studio_session.h"

using namespace lf;
using namespace lf::ui;

namespace {

void writeImage(const QString& path, int level) {
    Image img;
    img.allocate(8, 8, 1);
    for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = std::uint8_t(level + int(i % 5));
    QDir().mkpath(QFileInfo(path).absolutePath());
    write_file_bytes(path.toStdString(), encode_png(img));
}

Project folderProject(const QString& root) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{8, 8, 1}}});
    auto f = b.add("Flatten", {}, {in});
    auto d = b.add("Dense", {{"units", std::int64_t(2)}}, {f});  // dense_2
    b.add("Softmax", {}, {d});
    Project p;
    p.graph = b.graph;
    p.dataset.kind = "image-folder";
    p.dataset.path = root.toStdString();
    p.dataset.validation = "test";
    p.training.batch_size = 4;  // several batches, one partial
    return p;
}

// Logit 0 ("dark") = 3; logit 1 ("light") = 0.05 * sum of pixels (at most 64 * 0.05 = 3.2 * max 1):
// every image is called dark, the lighter ones less surely.
std::string darkWeights(const Project& p) {
    Model m(p.graph);
    m.init_weights(0);
    const WeightRef* kernel = m.find_weight("dense_2/kernel");
    const WeightRef* bias = m.find_weight("dense_2/bias");
    for (std::size_t i = 0; i < kernel->size; ++i) m.weights()[kernel->offset + i] = i % 2 ? 0.04f : 0.f;
    m.weights()[bias->offset] = 3.f;
    m.weights()[bias->offset + 1] = 0.f;
    return encode_weights(m);
}

}  // namespace

class TestEvaluationView : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    ProjectDocument doc_;
    std::unique_ptr<StudioSession> session_;

private Q_SLOTS:
    void initTestCase() {
        const QString root = dir_.filePath("shapes");
        for (int i = 0; i < 6; ++i) {
            writeImage(QString("%1/train/dark/%2.png").arg(root).arg(i), 10 + i);
            writeImage(QString("%1/train/light/%2.png").arg(root).arg(i), 200 + i);
        }
        for (int i = 0; i < 5; ++i) {
            writeImage(QString("%1/test/dark/%2.png").arg(root).arg(i), 5 + 10 * i);
            writeImage(QString("%1/test/light/%2.png").arg(root).arg(i), 150 + 20 * i);
        }
        doc_.reset(folderProject(root), dir_.filePath("shapes.lfproj"));
        session_ = std::make_unique<StudioSession>(&doc_);
        session_->setWeights(darkWeights(doc_.project()), "hand-set");
    }

    void fillsTheMatrixAndScores() {
        EvaluationView view(session_.get());
        QSignalSpy done(&view, &EvaluationView::evaluated);
        QSignalSpy failed(&view, &EvaluationView::failed);
        view.evaluate();
        QVERIFY(view.isRunning() || done.count());
        QVERIFY2(done.wait(8000), qPrintable(failed.count() ? failed.at(0).at(0).toString() : QString("timeout")));

        ConfusionModel* m = view.confusionModel();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->headerData(0, Qt::Vertical).toString(), QString("dark"));
        QCOMPARE(m->headerData(1, Qt::Horizontal).toString(), QString("light"));
        qint64 sum = 0;
        for (int t = 0; t < 2; ++t)
            for (int p = 0; p < 2; ++p) sum += m->index(t, p).data().toLongLong();
        QCOMPARE(sum, qint64(10));  // every test image once
        QCOMPARE(m->index(0, 0).data().toLongLong(), qint64(5));
        QCOMPARE(m->index(1, 0).data().toLongLong(), qint64(5));
        QCOMPARE(m->index(1, 0).data(ConfusionModel::FractionRole).toDouble(), 1.0);
        QCOMPARE(view.result().split, QString("test"));
        QVERIFY2(view.summary()->text().startsWith("Accuracy 50.00% on 10 test samples"), qPrintable(view.summary()->text()));

        QTableWidget* scores = view.scoresTable();
        QCOMPARE(scores->rowCount(), 2);
        QCOMPARE(scores->item(0, 0)->text(), QString("dark"));
        QCOMPARE(scores->item(0, 1)->text(), QString("0.500"));  // precision: 5 of 10 called dark
        QCOMPARE(scores->item(0, 2)->text(), QString("1.000"));  // recall
        QCOMPARE(scores->item(0, 3)->text(), QString("0.667"));
        QCOMPARE(scores->item(1, 2)->text(), QString("0.000"));
        QCOMPARE(scores->item(1, 4)->text(), QString("5"));

        session_->setWeights(darkWeights(doc_.project()), "hand-set again");
        QVERIFY(view.summary()->text().endsWith("evaluate again to update."));
    }

    void mistakesSortByConfidenceAndShowProbabilities() {
        EvaluationView view(session_.get());
        QSignalSpy done(&view, &EvaluationView::evaluated);
        view.evaluate();
        QVERIFY(done.wait(8000));
        QStandardItemModel* grid = view.mistakesModel();
        QCOMPARE(grid->rowCount(), 5);  // the five light images
        auto confidence = [&](int row) { return grid->item(row)->data(EvaluationView::ConfidenceRole).toDouble(); };
        for (int r = 1; r < 5; ++r) QVERIFY(confidence(r - 1) >= confidence(r));
        QVERIFY(confidence(0) > confidence(4));  // the darkest light image is the surest mistake
        if (const QString shots = qEnvironmentVariable("LF_SCREENSHOT_DIR"); !shots.isEmpty()) {
            view.resize(1200, 760);
            view.show();
            view.showMistake(0);
            QVERIFY(view.grab().save(QDir(shots).filePath("evaluate.png")));
        }
        view.sortMistakes(Qt::AscendingOrder);
        for (int r = 1; r < 5; ++r) QVERIFY(confidence(r - 1) <= confidence(r));

        view.showMistake(0);
        QTreeWidget* probs = view.probabilities();
        QCOMPARE(probs->topLevelItemCount(), 2);
        QCOMPARE(probs->topLevelItem(0)->text(0), QString("dark"));
        const double top = probs->topLevelItem(0)->text(1).toDouble(), other = probs->topLevelItem(1)->text(1).toDouble();
        QVERIFY(qAbs(top + other - 1.0) < 1e-3);
        QVERIFY(qAbs(top - confidence(0)) < 1e-3);
    }

    void droppedImageIsPredicted() {
        const QString file = dir_.filePath("dropped.png");
        writeImage(file, 3);
        EvaluationView view(session_.get());
        QWidget window;
        view.acceptImageDropsOn(&window);
        QVERIFY(window.acceptDrops());
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(1, 1), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy predicted(&view, &EvaluationView::predicted);
        QDropEvent drop(QPointF(1, 1), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QVERIFY(predicted.wait(5000));
        QCOMPARE(predicted.at(0).at(0).toString(), QString("dark"));
        QCOMPARE(view.probabilities()->topLevelItemCount(), 2);

        QMimeData text;  // not an image: left alone
        text.setUrls({QUrl::fromLocalFile(dir_.filePath("notes.txt"))});
        QDragEnterEvent other(QPoint(1, 1), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        other.ignore();
        QCoreApplication::sendEvent(&window, &other);
        QVERIFY(!other.isAccepted());
    }

    void unreadableImageIsReported() {
        const QString file = dir_.filePath("broken.png");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a png");
        f.close();
        EvaluationView view(session_.get());
        QSignalSpy failed(&view, &EvaluationView::failed);
        view.predictFile(file);
        QVERIFY(failed.wait(5000));
        QVERIFY2(failed.at(0).at(0).toString().contains("broken.png"), qPrintable(failed.at(0).at(0).toString()));
    }

    // A good image first, then a broken one: the error stands alone, without the previous
    // image and its probabilities beside it.
    void aFailedPredictionClearsThePreviousOne() {
        const QString good = dir_.filePath("good.png"), broken = dir_.filePath("broken2.png");
        writeImage(good, 3);
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a png");
        f.close();
        EvaluationView view(session_.get());
        QSignalSpy predicted(&view, &EvaluationView::predicted), failed(&view, &EvaluationView::failed);
        view.predictFile(good);
        QVERIFY(predicted.wait(5000));
        QVERIFY(!view.preview()->pixmap().isNull());
        QCOMPARE(view.probabilities()->topLevelItemCount(), 2);
        view.predictFile(broken);
        QVERIFY(failed.wait(5000));
        QVERIFY(view.preview()->pixmap().isNull());
        QCOMPARE(view.probabilities()->topLevelItemCount(), 0);
    }

    // The heat map says which axis is which and shows every class name whole.
    void confusionMatrixHasAxisTitlesAndWholeHeaders() {
        EvaluationView view(session_.get());
        view.resize(500, 400);
        view.show();
        QSignalSpy done(&view, &EvaluationView::evaluated);
        view.evaluate();
        QVERIFY(done.wait(8000));
        auto* predicted = view.findChild<QLabel*>("predictedAxisTitle");
        auto* actual = view.findChild<QLabel*>("trueAxisTitle");
        QVERIFY(predicted && actual);
        QCOMPARE(predicted->text(), QString("Predicted class"));
        QCOMPARE(actual->text(), QString("True class"));
        QVERIFY(predicted->isVisible() && actual->isVisible());
        QVERIFY2(actual->width() < actual->height(), "the true-class title runs down the side");
        QHeaderView* header = view.matrixView()->horizontalHeader();
        for (int c = 0; c < header->count(); ++c) {
            const QString name = view.confusionModel()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(name),
                     qPrintable(QString("column %1 (%2) is %3 px").arg(c).arg(name).arg(header->sectionSize(c))));
        }
    }
};

QTEST_MAIN(TestEvaluationView)
#include "test_evaluation_view.moc"
