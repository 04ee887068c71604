// layerforge: the studio. A thin main: the window lives in ui/mainwindow/.
//   layerforge [PROJECT.lfproj]   open a project (or offer to recover an autosave, or show the start page)
//   layerforge --example          the tutorial's CNN with Fashion-MNIST bound as an image folder
//                                 (imported to the per-user data folder on first use)
#include <QApplication>
#include <QCommandLineParser>
#include <QStyleFactory>

#include "i18n/language.h"
#include "i18n/translations.h"
#include "mainwindow/main_window.h"
#include "start/start_page.h"
#include "openmp_policy.h"
#include "plugin_host.h"

int main(int argc, char** argv) {
    lf::app::ensure_passive_openmp(argv);  // before Qt starts any thread
    QApplication app(argc, argv);
    QApplication::setApplicationName("Layerforge");
    QApplication::setOrganizationName("Layerforge");
    QApplication::setStyle(QStyleFactory::create("Fusion"));  // follows the system palette, light or dark
    lf::ui::installTranslations(lf::ui::resolveLanguage(lf::ui::savedLanguage()));  // before any widget
    QCommandLineParser cli;
    cli.setApplicationDescription(QApplication::translate("main", "Layerforge deep-learning studio"));
    cli.addHelpOption();
    cli.addOption({"example", QApplication::translate("main", "Open the built-in example: the tutorial's CNN on Fashion-MNIST.")});
    cli.addPositionalArgument("project", QApplication::translate("main", "A project file (*.lfproj) to open."));
    cli.process(app);

    // Before the window: the palette, inspector and training settings read the registries once.
    // A refused plugin is logged and skipped; the studio starts either way.
    lf::plugins::loadPlugins();
    lf::ui::MainWindow window;
    window.showFitted();
    if (cli.isSet("example")) {
        window.openExample();
    } else if (!cli.positionalArguments().isEmpty()) {
        window.openFile(cli.positionalArguments().first());
    } else if (window.hasRecovery()) {
        window.offerRecovery();
    } else if (lf::ui::StartPage::showAtStart()) {
        window.showStartPage();  // no project asked for: recent projects, templates, ways in
    }
    return app.exec();
}
