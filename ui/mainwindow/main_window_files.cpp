// New, Open, Save, Save As, recent files, Keras import, the unsaved-changes prompt and crash
// recovery of the studio window.
#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include "canvas/auto_layout.h"
#include "canvas/canvas_view.h"
#include "canvas/readable_layout.h"
#include "document/project_document.h"
#include "document/recovery.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/project/keras_import.h"
#include "checkpoints/tensorboard_import.h"
#include "mainwindow/main_window.h"
#include "mainwindow/model_import.h"
#include "session/studio_session.h"

namespace lf::ui {

namespace {

constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentFiles";

QString recoveryQuestion(const QString& original) {
    if (original.isEmpty())
        return MainWindow::tr("Layerforge did not close properly last time. Restore the unsaved changes to an untitled project?");
    return MainWindow::tr("Layerforge did not close properly last time. Restore the unsaved changes to %1 (%2)?")
        .arg(QFileInfo(original).fileName(), original);
}

QString projectFilter() { return MainWindow::tr("Layerforge projects (*.lfproj);;All files (*)"); }

}  // namespace

QString MainWindow::templateDirectory() {
    QString env = qEnvironmentVariable("LF_TEMPLATE_DIR");
    if (!env.isEmpty()) return env;
    QString installed = QCoreApplication::applicationDirPath() + "/../share/layerforge/templates";
    return QDir(installed).exists() ? installed : QStringLiteral(LF_TEMPLATE_DIR);
}

bool MainWindow::maybeSave() {
    if (!doc_->isModified()) return true;
    auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                       tr("%1 has unsaved changes. Save them?").arg(doc_->displayName()),
                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newProject() {
    if (!maybeSave()) return;
    Project p;
    p.name = "untitled";
    doc_->reset(std::move(p), {});
}

void MainWindow::newFromTemplate(const QString& path) {
    if (!maybeSave()) return;
    QString error;
    if (!doc_->load(path, &error)) return showError(tr("Cannot open template"), error);
    resetToReadableCopy();
}

// An untitled copy (saving asks for a file name) whose positions are the template's, not the
// user's: a chain too long to read when fitted is laid out in bands that fit the window.
void MainWindow::resetToReadableCopy() {
    Project copy = doc_->project();
    layOutToRead(copy.graph, canvasSizeOr1366(view_->viewport()->size()), QFontInfo(view_->font()).pixelSize());
    doc_->reset(std::move(copy), {});
    view_->fitToView();
}

// The end of Open and Save: report a failure, or remember the file and say what was done.
bool MainWindow::fileDone(bool ok, const QString& error, const QString& failure, const QString& path,
                          const QString& done) {
    if (!ok) {
        showError(failure, error);
        return false;
    }
    addRecent(path);
    statusBar()->showMessage(done, 4000);
    return true;
}

// A project in a folder the user cannot write (the installed templates) opens as an untitled
// copy: its runs and saves must not go beside the original.
bool MainWindow::openFile(const QString& path) {
    QString error;
    bool ok = doc_->load(path, &error);
    const bool readOnly = ok && !folder_is_writable(QFileInfo(path).absolutePath().toStdString());
    if (readOnly) {
        resetToReadableCopy();
        copyOf_ = path;
    }
    if (ok) view_->fitToView();
    return fileDone(ok, error, tr("Cannot open project"), path,
                    readOnly ? tr("%1 is in a read-only folder: opened as an untitled copy").arg(path) : tr("Opened %1").arg(path));
}

// Before a run of such a copy: ask where to save it, so its run store goes there.
bool MainWindow::placeForRuns() {
    if (copyOf_.isEmpty() || !doc_->fileName().isEmpty()) return true;
    const QString name = QFileInfo(copyOf_).fileName();
    QString path = QFileDialog::getSaveFileName(this, tr("Save the copy of %1 where its runs can go").arg(name),
                                                QDir::home().filePath(name), projectFilter());
    if (path.isEmpty()) return false;
    if (!path.endsWith(".lfproj")) path += ".lfproj";
    return saveTo(path);
}

void MainWindow::openDialog() {
    if (!maybeSave()) return;
    QString path = QFileDialog::getOpenFileName(this, tr("Open project"), {}, projectFilter());
    if (!path.isEmpty()) openFile(path);
}

bool MainWindow::saveTo(const QString& path) {
    QString error;
    bool ok = doc_->saveAs(path, &error);
    if (ok) recovery_->discard();
    return fileDone(ok, error, tr("Cannot save project"), path, tr("Saved %1").arg(path));
}

bool MainWindow::save() { return doc_->fileName().isEmpty() ? saveAs() : saveTo(doc_->fileName()); }

bool MainWindow::saveAs() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save project as"), doc_->fileName(), projectFilter());
    if (path.isEmpty()) return false;
    if (!path.endsWith(".lfproj")) path += ".lfproj";
    return saveTo(path);
}

bool MainWindow::importKeras(const QString& path) {
    if (!maybeSave()) return false;
    try {
        Project p;
        p.name = QFileInfo(path).completeBaseName().toStdString();
        p.graph = import_keras_model_file(path.toStdString());
        for (const auto& [id, at] : wrappedLayout(p.graph, canvasSizeOr1366(view_->viewport()->size()))) {  // long models wrap
            p.graph.find(id)->x = at.x();
            p.graph.find(id)->y = at.y();
        }
        doc_->reset(std::move(p), {}, true);
    } catch (const Error& e) {
        showError(tr("Cannot import Keras model"), QString::fromStdString(e.what()));
        return false;
    }
    view_->fitToView();
    statusBar()->showMessage(tr("Imported %1").arg(path), 4000);
    return true;
}

void MainWindow::importDialog() {
    const QString models = ModelImport::fileFilter().section(";;", 0, 0);
    QString path = QFileDialog::getOpenFileName(this, tr("Import model"), {},
                                                models + ";;" + tr("Keras model JSON, the graph only (*.json);;All files (*)"));
    if (!path.isEmpty()) importModel(path);
}

bool MainWindow::importModel(const QString& path) {
    if (!ModelImport::isModelFile(path)) return importKeras(path);  // a Keras JSON graph, no weights
    if (!maybeSave()) return false;
    if (!modelImport_->start(path)) {
        statusBar()->showMessage(tr("An import is already running"), 4000);
        return false;
    }
    statusBar()->showMessage(tr("Importing %1…").arg(path));
    return true;
}

void MainWindow::createModelImport() {
    modelImport_ = new ModelImport(this, [this](const QString& suggested) {
        return QFileDialog::getSaveFileName(this, tr("Save the imported project"), suggested, projectFilter());
    });
    connect(modelImport_, &ModelImport::failed, this, [this](const QString& message) {
        showError(tr("Cannot import model"), message);
    });
    connect(modelImport_, &ModelImport::cancelled, this, [this] { statusBar()->clearMessage(); });
    connect(modelImport_, &ModelImport::imported, this, [this](const QString& project, const QString& report) {
        if (!maybeSave() || !openFile(project)) return;  // the project stays on disk to be opened later
        auto* box = new QMessageBox(QMessageBox::Information, tr("Model imported"), report, QMessageBox::Ok, this);
        box->setObjectName("importReport");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
        statusBar()->showMessage(tr("Imported %1").arg(project), 6000);
    });
    acceptModelDrops(this, modelImport_);
}

void MainWindow::createTensorBoardImport() {
    tensorboardImport_ = new TensorBoardImport(this);
    connect(tensorboardImport_, &TensorBoardImport::finished, this, [this](const TensorBoardImportReport& r) {
        if (!r.runs.isEmpty()) session_->notifyStoreChanged();
        // Not modal: the import ran in the background and the user may be at work meanwhile.
        auto* box = r.runs.isEmpty() ? new QMessageBox(QMessageBox::Warning, tr("No TensorBoard runs imported"), r.text(),
                                                       QMessageBox::Ok, this)
                                     : new QMessageBox(QMessageBox::Information, tr("TensorBoard logs imported"), r.text(),
                                                       QMessageBox::Ok, this);
        box->setObjectName("tensorboardImportReport");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
        statusBar()->showMessage(tr("Imported %n TensorBoard run(s)", nullptr, int(r.runs.size())), 6000);
    });
}

bool MainWindow::importTensorBoardLogs(const QString& folder) {
    if (!tensorboardImport_->start(session_->storePath(), folder)) {
        statusBar()->showMessage(tr("An import is already running"), 4000);
        return false;
    }
    statusBar()->showMessage(tr("Importing TensorBoard logs from %1…").arg(folder));
    return true;
}

QStringList MainWindow::recentFiles() { return QSettings().value(kRecentKey).toStringList(); }

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList files = recentFiles();
    QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent) files.removeLast();
    settings.setValue(kRecentKey, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (const QString& f : files)
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] {
            if (maybeSave()) openFile(f);
        })->setToolTip(f);
    recentMenu_->setEnabled(!files.isEmpty());
}

bool MainWindow::hasRecovery() const { return recovery_->exists(); }

void MainWindow::offerRecovery() {
    if (!recovery_->exists()) return;
    auto answer = QMessageBox::question(this, tr("Recover unsaved work?"),
                                        recoveryQuestion(recovery_->originalFileName()),
                                        QMessageBox::Yes | QMessageBox::No);
    QString error;
    if (answer == QMessageBox::Yes && !recovery_->restore(&error)) showError(tr("Cannot recover"), error);
    if (answer == QMessageBox::No) recovery_->discard();
    view_->fitToView();
}

}  // namespace lf::ui
