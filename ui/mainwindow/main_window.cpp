#include "mainwindow/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/node_item.h"
#include "document/add_nodes.h"
#include "document/fragment.h"
#include "document/model_stats.h"
#include "document/project_document.h"
#include "document/recovery.h"
#include "document/set_training.h"
#include "document/training_memory.h"
#include "inspector/inspector.h"
#include "mainwindow/summary_panel.h"
#include "palette/palette_panel.h"
#include "session/studio_session.h"
#include "widgets/scrollable.h"

namespace lf::ui {

MainWindow::MainWindow(const QString& recoveryPath, int autosaveMs, QWidget* parent)
    : QMainWindow(parent), doc_(new ProjectDocument(this)), session_(new StudioSession(doc_, this)),
      workspaces_(new QTabWidget), scene_(new CanvasScene(doc_, this)),
      view_(new CanvasView(scene_)), inspector_(new Inspector(doc_)), palette_(new PalettePanel),
      memory_(new TrainingMemoryEstimate(doc_)), summary_(new SummaryPanel(doc_, memory_)), recovery_(new Recovery(doc_, recoveryPath, autosaveMs, this)) {
    workspaces_->setDocumentMode(true);
    workspaces_->setObjectName("workspaces");
    setCentralWidget(workspaces_);
    addWorkspace(view_, tr("Design"));
    createDocks();
    createWorkspaces();
    connect(workspaces_, &QTabWidget::currentChanged, this, [this](int i) { showDesignDocks(i == 0); });
    createActions();
    createModelImport();
    createTensorBoardImport();
    createStatusBar();
    connect(doc_, &ProjectDocument::changed, this, &MainWindow::updateStatus);
    connect(memory_, &TrainingMemoryEstimate::changed, this, &MainWindow::updateStatus);
    connect(doc_, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc_, &ProjectDocument::fileNameChanged, this, &MainWindow::updateTitle);
    connect(scene_, &CanvasScene::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(scene_, &QGraphicsScene::selectionChanged, this, [this] {
        auto ids = scene_->selectedNodeIds();
        inspector_->setNode(ids.size() == 1 ? QString::fromStdString(ids[0]) : QString());
    });
    connect(palette_, &PalettePanel::layerActivated, this, &MainWindow::addLayerAtCentre);
    restoreLayout();
    updateTitle();
    updateStatus();
}

// The children die in ~QWidget, after this class's part of the window is gone, and some still
// signal as they go (the document's undo stack says cleanChanged, the scene selectionChanged):
// nothing may reach this window's slots then.
MainWindow::~MainWindow() {
    for (QObject* child : findChildren<QObject*>()) child->disconnect(this);
}

void MainWindow::createDocks() {
    auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    dock(palette_, tr("Layers"), "palette", Qt::LeftDockWidgetArea);
    dock(scrollable(inspector_), tr("Inspector"), "inspector", Qt::RightDockWidgetArea);
    dock(scrollable(summary_), tr("Model summary"), "summary", Qt::BottomDockWidgetArea);
    resizeDocks({findChild<QDockWidget*>("palette"), findChild<QDockWidget*>("inspector")}, {180, 270}, Qt::Horizontal);
    resizeDocks({findChild<QDockWidget*>("summary")}, {150}, Qt::Vertical);
}

void MainWindow::addWorkspace(QWidget* page, const QString& title) { workspaces_->addTab(page, title); }

void MainWindow::createStatusBar() {
    totals_ = new QLabel;
    batch_ = new QSpinBox;
    batch_->setRange(1, 65536);
    batch_->setPrefix(tr("batch "));
    batch_->setToolTip(tr("Batch size used for training and for the memory estimate"));
    batch_->setKeyboardTracking(false);
    statusBar()->addPermanentWidget(totals_);
    statusBar()->addPermanentWidget(batch_);
    connect(batch_, &QSpinBox::valueChanged, this, [this](int v) {
        if (v == doc_->project().training.batch_size) return;
        TrainingConfig t = doc_->project().training;
        t.batch_size = v;
        doc_->push(new SetTrainingCommand(doc_, t, doc_->project().dataset));
    });
}

void MainWindow::updateStatus() {
    totals_->setText(statusSummary(doc_->project(), doc_->analysis(), *memory_));
    if (batch_->value() != doc_->project().training.batch_size) {
        QSignalBlocker block(batch_);
        batch_->setValue(int(doc_->project().training.batch_size));
    }
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1[*] — Layerforge").arg(doc_->displayName()));
    setWindowModified(doc_->isModified());
}

void MainWindow::addLayerAtCentre(const QString& type) {
    QPointF centre = scene_->snap(view_->mapToScene(view_->viewport()->rect().center()) -
                                  QPointF(NodeItem::kWidth / 2, 30));
    Graph fragment;
    fragment.nodes.push_back(newLayerNode(*doc_, type.toStdString(), centre));
    std::string id = fragment.nodes[0].id;
    doc_->push(new AddNodesCommand(doc_, std::move(fragment), tr("Add %1").arg(type)));
    scene_->selectNodes({id});
}

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(message, 8000);
    QMessageBox::warning(this, title, message);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) return event->ignore();
    recovery_->discard();
    saveLayout();
    event->accept();
}

}  // namespace lf::ui
