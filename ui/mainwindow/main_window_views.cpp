// The start page, Analyze Network and the image-folder and example entries they offer.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTabWidget>

#include "analysis/network_report_dialog.h"
#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "dataset/dataset_panel.h"
#include "dataset/example_dataset.h"
#include "dataset/example_project.h"
#include "document/project_document.h"
#include "mainwindow/main_window.h"
#include "start/start_page.h"

namespace lf::ui {

namespace {

const char* const kImageTemplate = "cats_vs_dogs_cnn.lfproj";  // an image-folder CNN with no folder bound

}  // namespace

void MainWindow::createAnalyzeMenu() {
    QMenu* m = menuBar()->addMenu(tr("&Analyze"));
    QAction* a = m->addAction(tr("Analyze &Network…"), this, [this] { showNetworkReport(); });
    a->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
    a->setToolTip(tr("Errors, warnings and every layer's memory and FLOPs"));
    m->addAction(tr("Layer &Profile"), this, [this] {
        if (QWidget* p = findChild<QWidget*>("profilePanel")) workspaces_->setCurrentWidget(p);
    });
}

NetworkReportDialog* MainWindow::showNetworkReport() {
    auto* dialog = findChild<NetworkReportDialog*>();
    if (!dialog) {
        dialog = new NetworkReportDialog(doc_, this);
        connect(dialog, &NetworkReportDialog::layerActivated, this, [this](const QString& id) {
            workspaces_->setCurrentIndex(0);
            scene_->selectNodes({id.toStdString()});
            if (QGraphicsItem* item = scene_->selectedItems().value(0)) view_->centerOn(item);
        });
    }
    dialog->refresh();
    dialog->show();
    dialog->raise();
    return dialog;
}

StartPage* MainWindow::showStartPage() {
    auto* page = new StartPage(recentFiles(), templateDirectory(), this);
    page->setAttribute(Qt::WA_DeleteOnClose);
    connect(page, &StartPage::openProject, this, [this](const QString& path) {
        if (maybeSave()) openFile(path);
    });
    connect(page, &StartPage::newFromTemplate, this, [this](const QString& path) { newFromTemplate(path); });
    connect(page, &StartPage::newBlank, this, [this] { newProject(); });
    connect(page, &StartPage::openDialog, this, [this] { openDialog(); });
    connect(page, &StartPage::openExample, this, [this] { openExample(); });
    connect(page, &StartPage::importModel, this, [this] { importDialog(); });
    connect(page, &StartPage::openImageFolder, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open an image folder"));
        if (!dir.isEmpty()) openImageFolder(dir);
    });
    page->open();
    return page;
}

void MainWindow::openImageFolder(const QString& dir) {
    const QString image = QDir(templateDirectory()).filePath(kImageTemplate);
    if (doc_->project().graph.nodes.empty() && QFileInfo::exists(image)) newFromTemplate(image);
    auto* data = findChild<DatasetPanel*>();
    workspaces_->setCurrentWidget(data);
    data->bindImageFolder(dir);
    statusBar()->showMessage(tr("Bound the image folder %1").arg(dir), 5000);
}

void MainWindow::openExample() {
    if (!maybeSave()) return;
    auto* data = new ExampleDataset(defaultExampleDatasetDir(), this);
    QString error;
    const QString path = templateDirectory() + "/fashion_cnn.lfproj";
    if (openExampleProject(doc_, path, data, this, &error)) resetToReadableCopy();
    else QMessageBox::warning(this, tr("Cannot open the example"), error);
}

}  // namespace lf::ui
