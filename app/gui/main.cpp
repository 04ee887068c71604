// layerforge: the studio. A thin main: the window lives in ui/mainwindow/.
#include <QApplication>
#include <QStyleFactory>

#include "mainwindow/main_window.h"
#include "plugin_host.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Layerforge");
    QApplication::setOrganizationName("Layerforge");
    QApplication::setStyle(QStyleFactory::create("Fusion"));  // follows the system palette, light or dark
    // Before the window: the palette, inspector and training settings read the registries once.
    // A refused plugin is logged and skipped; the studio starts either way.
    lf::plugins::loadPlugins();
    lf::ui::MainWindow window;
    window.show();
    const QStringList args = QApplication::arguments();
    if (args.size() > 1) window.openFile(args[1]);
    else window.offerRecovery();
    return app.exec();
}
