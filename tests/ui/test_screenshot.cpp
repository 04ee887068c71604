// Renders the studio window on the tutorial CNN template and writes canvas.png to
// $LF_SCREENSHOT_DIR (default: the working
// directory), canvas-dark.png with a dark palette, and zh_CN.png with the Simplified Chinese
// translation. scripts/screenshot.sh runs it under xvfb-run for docs/screenshots/.
#include <QApplication>
#include <QDir>
#include <QtTest>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edit_operations.h"
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
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(lfTemplate("fashion_cnn.lfproj")));
        autoLayout(window.scene(), LayoutDirection::LeftToRight);
        window.scene()->selectNodes({"conv2"});
        // At 100% the first six layers fit, readable; fitting all nine would zoom into blocks.
        window.view()->resetZoom();
        const QRectF all = window.scene()->itemsBoundingRect();
        window.view()->centerOn(all.left() + 440, all.center().y());
        QTest::qWait(200);
        QImage shot = window.grab().toImage();
        QVERIFY(!shot.isNull());
        QString out = qEnvironmentVariable("LF_SCREENSHOT_DIR", QDir::currentPath()) + "/" + file;
        QApplication::setPalette(light);
        QVERIFY2(shot.save(out), qPrintable(out));
        qInfo("wrote %s", qPrintable(out));
    }
};

QTEST_MAIN(TestScreenshot)
#include "test_screenshot.moc"
