// Renders the studio window on the functional template (the CNN template arrives with the
// convolution layers) and writes canvas.png to $LF_SCREENSHOT_DIR (default: the working
// directory). scripts/screenshot.sh runs it under xvfb-run for docs/screenshots/.
#include <QDir>
#include <QtTest>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edit_operations.h"
#include "mainwindow/main_window.h"
#include "ui_test_util.h"

using namespace lf::ui;

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void canvas() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("recovery.lfproj"));
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(lfTemplate("fashion_functional.lfproj")));
        autoLayout(window.scene(), LayoutDirection::LeftToRight);  // Ctrl+L: the template's spacing is tight
        window.scene()->selectNodes({"dense"});
        window.view()->fitToView();
        QTest::qWait(200);
        QImage shot = window.grab().toImage();
        QVERIFY(!shot.isNull());
        QString out = qEnvironmentVariable("LF_SCREENSHOT_DIR", QDir::currentPath()) + "/canvas.png";
        QVERIFY2(shot.save(out), qPrintable(out));
        qInfo("wrote %s", qPrintable(out));
    }
};

QTEST_MAIN(TestScreenshot)
#include "test_screenshot.moc"
