// The window's layout: the Design workspace's docks shown only with their page, the geometry
// and dock layout kept in QSettings between sessions, and View > Reset layout.
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>

#include "mainwindow/main_window.h"

namespace lf::ui {

namespace {

const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
const char* const kWasVisible = "lfWasVisible";
constexpr int kStateVersion = 1;

QList<QDockWidget*> designDocks(const QMainWindow* w) {
    QList<QDockWidget*> docks;
    for (const char* name : {"palette", "inspector", "summary"})
        if (auto* d = w->findChild<QDockWidget*>(name)) docks.append(d);
    return docks;
}

QSize availableScreen(const QWidget* w) {
    return (w->screen() ? w->screen() : QGuiApplication::primaryScreen())->availableGeometry().size();
}

}  // namespace

// The palette, inspector and summary belong to the Design workspace; the other workspaces get
// the whole window. Docks the user closed stay closed. Only leaving Design records which were
// open: going from one other page to the next must not forget them.
void MainWindow::showDesignDocks(bool show) {
    if (show == designDocksShown_) return;
    designDocksShown_ = show;
    for (QDockWidget* d : designDocks(this)) {
        if (!show) {
            d->setProperty(kWasVisible, d->isVisible());
            d->hide();
        } else if (d->property(kWasVisible).toBool()) {
            d->show();
        }
    }
}

// The saved layout, or a first size that leaves room on the screen around the window.
void MainWindow::restoreLayout() {
    defaultState_ = saveState(kStateVersion);
    for (QDockWidget* d : designDocks(this))  // opening one from View shows the Design page with it
        connect(d->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
            if (on) workspaces_->setCurrentIndex(0);
        });
    QSettings settings;
    restoredGeometry_ = restoreGeometry(settings.value(kGeometryKey).toByteArray());
    if (!restoredGeometry_) {
        const QSize screen = availableScreen(this);
        resize(std::min(1360, screen.width() * 9 / 10), std::min(860, screen.height() * 9 / 10));
    }
    restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
}

bool MainWindow::startsMaximized(QSize availableScreen) { return availableScreen.height() <= 900; }

void MainWindow::showFitted() {
    if (!restoredGeometry_ && startsMaximized(availableScreen(this))) showMaximized();
    else show();
}

// Saved as the Design page shows it, so its docks come back with the page next time.
void MainWindow::saveLayout() {
    workspaces_->setCurrentIndex(0);
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kStateVersion));
}

void MainWindow::resetLayout() {
    restoreState(defaultState_, kStateVersion);
    const bool design = workspaces_->currentIndex() == 0;
    designDocksShown_ = true;  // the default state has them open
    for (QDockWidget* d : findChildren<QDockWidget*>()) d->setFloating(false);
    if (!design) showDesignDocks(false);
}

}  // namespace lf::ui
