// Menus, toolbar and keyboard shortcuts of the studio window.
#include <QAction>
#include <QDockWidget>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edit_operations.h"
#include "document/project_document.h"
#include "export/export_dialog.h"
#include "mainwindow/help_dialogs.h"
#include "mainwindow/main_window.h"
#include "document/redo_keys.h"
#include "preferences/preferences_dialog.h"

namespace lf::ui {

namespace {

QAction* add(QMenu* menu, const QString& text, const QKeySequence& key, QObject* ctx, std::function<void()> f,
             QStyle::StandardPixmap icon = QStyle::StandardPixmap(-1)) {
    QAction* a = menu->addAction(text);
    a->setShortcut(key);
    if (icon != QStyle::StandardPixmap(-1)) a->setIcon(qApp->style()->standardIcon(icon));
    QObject::connect(a, &QAction::triggered, ctx, std::move(f));
    return a;
}

}  // namespace

void MainWindow::createActions() {
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createAnalyzeMenu();
    createHelpMenu();
}

void MainWindow::createFileMenu() {
    QMenu* m = menuBar()->addMenu(tr("&File"));
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName("mainToolBar");
    bar->addAction(add(m, tr("&New"), QKeySequence::New, this, [this] { newProject(); }, QStyle::SP_FileIcon));
    add(m, tr("Start &Page…"), QKeySequence(), this, [this] { showStartPage(); });
    QMenu* templates = m->addMenu(tr("New from &Template"));
    for (const QFileInfo& f : QDir(templateDirectory()).entryInfoList({"*.lfproj"}, QDir::Files, QDir::Name)) {
        QString path = f.absoluteFilePath();
        templates->addAction(f.completeBaseName(), this, [this, path] { newFromTemplate(path); });
    }
    QMenu* insert = m->addMenu(tr("&Insert Template"));
    for (const QFileInfo& f : QDir(templateDirectory()).entryInfoList({"*.lfproj"}, QDir::Files, QDir::Name)) {
        QString path = f.absoluteFilePath();
        insert->addAction(f.completeBaseName(), this, [this, path] {
            QString error;
            if (!insertTemplate(scene_, path, &error)) showError(tr("Cannot insert template"), error);
        });
    }
    bar->addAction(add(m, tr("&Open…"), QKeySequence::Open, this, [this] { openDialog(); }, QStyle::SP_DialogOpenButton));
    recentMenu_ = m->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    bar->addAction(add(m, tr("&Save"), QKeySequence::Save, this, [this] { save(); }, QStyle::SP_DialogSaveButton));
    add(m, tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    m->addSeparator();
    add(m, tr("&Import Model…"), QKeySequence(tr("Ctrl+I")), this, [this] { importDialog(); });
    add(m, tr("Import &TensorBoard Logs…"), QKeySequence(), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Import TensorBoard logs (the folder given to "
                                                                      "tensorboard --logdir)"));
        if (!dir.isEmpty()) importTensorBoardLogs(dir);
    });
    add(m, tr("&Export…"), QKeySequence(tr("Ctrl+E")), this, [this] { showExportDialog(this, session_); });
    m->addSeparator();
    add(m, tr("&Quit"), QKeySequence::Quit, this, [this] { close(); });
    bar->addSeparator();
    undo_ = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    redo_ = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    undo_->setShortcut(QKeySequence::Undo);
    redo_->setShortcuts(redoKeys());
    undo_->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    redo_->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    bar->addAction(undo_);
    bar->addAction(redo_);
}

void MainWindow::createEditMenu() {
    QMenu* m = menuBar()->addMenu(tr("&Edit"));
    m->addAction(undo_);
    m->addAction(redo_);
    m->addSeparator();
    add(m, tr("Cu&t"), QKeySequence::Cut, this, [this] { cutSelection(scene_); });
    add(m, tr("&Copy"), QKeySequence::Copy, this, [this] { copySelection(scene_); });
    add(m, tr("&Paste"), QKeySequence::Paste, this, [this] { pasteClipboard(scene_); });
    add(m, tr("D&uplicate"), QKeySequence(tr("Ctrl+D")), this, [this] { duplicateSelection(scene_); });
    add(m, tr("&Delete"), QKeySequence::Delete, this, [this] { deleteSelection(scene_); })
        ->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    m->addSeparator();
    add(m, tr("Select &All"), QKeySequence::SelectAll, this, [this] { selectAll(scene_); });
    m->addSeparator();
    add(m, tr("&Group into Block"), QKeySequence(tr("Ctrl+Shift+G")), this, [this] { groupSelection(scene_); });
    add(m, tr("U&ngroup Block"), QKeySequence(tr("Ctrl+Shift+U")), this, [this] { ungroupSelection(scene_); });
    add(m, tr("Collapse / E&xpand Block"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] { toggleCollapsed(scene_); });
    m->addSeparator();
    add(m, tr("Auto-layout &Left to Right"), QKeySequence(tr("Ctrl+L")), this,
        [this] { autoLayout(scene_, LayoutDirection::LeftToRight); view_->fitToView(); });
    add(m, tr("Auto-layout &Top to Bottom"), QKeySequence(tr("Ctrl+Shift+L")), this,
        [this] { autoLayout(scene_, LayoutDirection::TopToBottom); view_->fitToView(); });
    add(m, tr("Auto-layout to &Fit Window"), QKeySequence(tr("Ctrl+Alt+L")), this, [this] {
        autoLayoutToFit(scene_, view_->viewport()->size());
        view_->fitToView();
    });
    m->addSeparator();
    add(m, tr("&Preferences…"), QKeySequence::Preferences, this, [this] { PreferencesDialog(this).exec(); })
        ->setMenuRole(QAction::PreferencesRole);
}

void MainWindow::createViewMenu() {
    QMenu* m = menuBar()->addMenu(tr("&View"));
    add(m, tr("Zoom &In"), QKeySequence::ZoomIn, view_, [this] { view_->zoomIn(); });
    add(m, tr("Zoom &Out"), QKeySequence::ZoomOut, view_, [this] { view_->zoomOut(); });
    add(m, tr("&Actual Size"), QKeySequence(tr("Ctrl+0")), view_, [this] { view_->resetZoom(); });
    add(m, tr("&Fit to Window"), QKeySequence(tr("Ctrl+F")), view_, [this] { view_->fitToView(); });
    m->addSeparator();
    QAction* snap = add(m, tr("&Snap to Grid"), QKeySequence(tr("Ctrl+G")), this, [] {});
    snap->setCheckable(true);
    snap->setChecked(scene_->snapToGrid());
    connect(snap, &QAction::toggled, this, [this](bool on) { scene_->setSnapToGrid(on); });
    m->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) m->addAction(d->toggleViewAction());
    add(m, tr("&Reset layout"), QKeySequence(), this, [this] { resetLayout(); });
}

// Both open without blocking: the window stays usable, and tests read them as they are.
void MainWindow::createHelpMenu() {
    QMenu* m = menuBar()->addMenu(tr("&Help"));
    add(m, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] {
        QDialog* dialog = shortcutsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    add(m, tr("&About Layerforge"), QKeySequence(), this, [this] {
        auto* box = new QMessageBox(QMessageBox::Information, tr("About Layerforge"), aboutText(), QMessageBox::Ok, this);
        box->setObjectName("aboutBox");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    })->setMenuRole(QAction::AboutRole);
}

}  // namespace lf::ui
