// layerforge: the studio. A thin main: the window lives in ui/mainwindow/.
#include <QApplication>
#include <QStyleFactory>

#include "i18n/language.h"
#include "i18n/translations.h"
#include "mainwindow/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Layerforge");
    QApplication::setOrganizationName("Layerforge");
    QApplication::setStyle(QStyleFactory::create("Fusion"));  // follows the system palette, light or dark
    lf::ui::installTranslations(lf::ui::resolveLanguage(lf::ui::savedLanguage()));  // before any widget
    lf::ui::MainWindow window;
    window.show();
    const QStringList args = QApplication::arguments();
    if (args.size() > 1) window.openFile(args[1]);
    else window.offerRecovery();
    return app.exec();
}
