#include "training/message_views.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QVBoxLayout>

#include "session/studio_session.h"
#include "training/error_banner.h"
#include "training/log_view.h"
#include "training/training_controller.h"

namespace lf::ui {

MessageViews installMessageViews(QMainWindow* window, TrainingController* controller) {
    auto* log = new LogView;
    auto* dock = new QDockWidget(QObject::tr("Log"), window);
    dock->setObjectName("logDock");
    dock->setWidget(log);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    window->resizeDocks({dock}, {150}, Qt::Vertical);  // a few lines: the workspaces need the height

    // The banner sits above the central widget (the workspace tabs) in a container.
    auto* banner = new ErrorBanner;
    QWidget* central = window->takeCentralWidget();
    auto* container = new QWidget;
    auto* layout = new QVBoxLayout(container);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(banner);
    if (central) layout->addWidget(central, 1);
    window->setCentralWidget(container);

    QObject::connect(controller, &TrainingController::logLine, log, &LogView::appendLine);
    QObject::connect(controller, &TrainingController::failed, log, &LogView::appendError);
    QObject::connect(controller, &TrainingController::failed, banner,
                     [banner](const QString& m) { banner->showMessage(QObject::tr("Training failed: %1").arg(m)); });
    QObject::connect(controller, &TrainingController::started, banner, &ErrorBanner::dismiss);
    QObject::connect(controller->session(), &StudioSession::projectSwitched, banner, &ErrorBanner::dismiss);
    return {log, banner};
}

}  // namespace lf::ui
