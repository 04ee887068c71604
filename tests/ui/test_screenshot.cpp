// Renders the studio window on the tutorial CNN template and writes canvas.png to
// $LF_SCREENSHOT_DIR (default: the working
// directory), canvas-dark.png with a dark palette, and zh_CN.png with the Simplified Chinese
// translation; then the tutorial MLP on Fashion-MNIST: train.png mid-training, data.png,
// checkpoints.png (two checkpoints compared) and evaluate.png. scripts/screenshot.sh runs it
// under xvfb-run for docs/screenshots/.
#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edit_operations.h"
#include "charts/training_charts.h"
#include "checkpoints/checkpoint_browser.h"
#include "checkpoints/checkpoint_table_model.h"
#include "dataset/dataset_panel.h"
#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "layerforge/store/run_store.h"
#include "session/studio_session.h"
#include "training/training_controller.h"
#include "training/training_panel.h"
#include "i18n/translations.h"
#include "mainwindow/main_window.h"
#include "ui_test_util.h"

using namespace lf::ui;

namespace {

QPalette darkPalette() {  // what a dark desktop theme hands to Fusion
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::Text, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8b, 0xfd));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xa6));
    return p;
}

const QSize kLaptop(1366, 740);  // a 1366 x 768 screen less a window title bar

void save(QWidget& window, const QString& file) {
    QTest::qWait(150);  // coalesced chart redraws and queued layout
    QImage shot = window.grab().toImage();
    QVERIFY(!shot.isNull());
    QString out = qEnvironmentVariable("LF_SCREENSHOT_DIR", QDir::currentPath()) + "/" + file;
    QVERIFY2(shot.save(out), qPrintable(out));
    qInfo("wrote %s", qPrintable(out));
}

}  // namespace

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void canvas_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("file");
        QTest::newRow("light") << false << "en" << "canvas.png";
        QTest::newRow("dark") << true << "en" << "canvas-dark.png";
        QTest::newRow("zh_CN") << false << "zh_CN" << "zh_CN.png";
    }

    void canvas() {
        QFETCH(bool, dark);
        QFETCH(QString, language);
        QFETCH(QString, file);
        const QPalette light = QApplication::palette();
        if (dark) QApplication::setPalette(darkPalette());
        QVERIFY(!installTranslations(language).isEmpty());
        auto untranslate = qScopeGuard([] { removeTranslations(); });
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(lfTemplate("fashion_cnn.lfproj")));
        window.scene()->selectNodes({"conv2"});
        // What Edit > Auto-layout to Fit Window shows: all nine layers, wrapped, readable.
        autoLayoutToFit(window.scene(), window.view()->viewport()->size());
        window.view()->fitToView();
        QTest::qWait(200);
        save(window, file);
        QApplication::setPalette(light);
    }

    // The dashboard: the tutorial MLP trains on (part of) Fashion-MNIST; the Train page is shot
    // while it runs, then the run's checkpoints, the data and the evaluation.
    void workspaces() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ProjectDocument probe;
        loadTemplate(probe, "fashion_mlp.lfproj");
        lf::Project p = probe.project();
        p.dataset.limit_train = 12000;
        p.dataset.limit_test = 2000;
        p.training.epochs = 6;
        window.document()->reset(p, dir.filePath("fashion_mlp.lfproj"));

        auto* train = window.findChild<TrainingPanel*>();
        auto* charts = window.findChild<TrainingCharts*>();
        window.workspaces()->setCurrentWidget(train);
        TrainingController* c = train->controller();
        TrainingOptions o = c->options();
        o.eventIntervalMs = 20;  // the MLP trains an epoch in a fraction of a second here
        c->setOptions(o);
        QSignalSpy finished(c, &TrainingController::finished);
        QVERIFY(c->start());
        QTRY_VERIFY_WITH_TIMEOUT(charts->pointCount("val_accuracy") >= 3, 60000);
        save(window, "train.png");
        c->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);

        auto* browser = window.findChild<CheckpointBrowser*>();
        window.workspaces()->setCurrentWidget(browser);
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() >= 3, 10000);
        lf::RunStore store(window.session()->storePath().toStdString(), false);
        QList<qint64> ids;
        for (const lf::CheckpointInfo& ck : store.checkpoints()) ids << ck.id;
        browser->selectCheckpoints(ids.mid(0, 3));
        browser->compare(ids.mid(0, 3));
        save(window, "checkpoints.png");

        auto* data = window.findChild<DatasetPanel*>();
        QSignalSpy summary(data, &DatasetPanel::summaryReady);
        window.workspaces()->setCurrentWidget(data);
        data->inspectNow();
        QTRY_VERIFY_WITH_TIMEOUT(!data->isLoading() && !summary.isEmpty(), 30000);
        save(window, "data.png");

        auto* evaluation = window.findChild<EvaluationView*>();
        QSignalSpy evaluated(evaluation, &EvaluationView::evaluated);
        window.workspaces()->setCurrentWidget(evaluation);
        evaluation->evaluate();
        QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 30000);
        save(window, "evaluate.png");
    }
};

QTEST_MAIN(TestScreenshot)
#include "test_screenshot.moc"
