#pragma once
// The studio window: workspaces as tabs in the centre (Design: the canvas with palette,
// inspector and model summary docks; then the dataset, training, checkpoint and evaluation
// workspaces added in main_window_workspaces.cpp), totals in the status bar. File handling
// lives in main_window_files.cpp, menus and shortcuts in main_window_actions.cpp, the saved
// geometry and dock layout in main_window_layout.cpp, the start page and Analyze Network in
// main_window_views.cpp.
#include <QByteArray>
#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QSpinBox;
class QTabWidget;

namespace lf::ui {

class CanvasScene;
class CanvasView;
class Inspector;
class NetworkReportDialog;
class PalettePanel;
class ProjectDocument;
class Recovery;
class StudioSession;
class StartPage;
class SummaryPanel;
class TrainingMemoryEstimate;
class TrainingPanel;

class ModelImport;
class TensorBoardImport;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // recoveryPath empty: the default location; intervalMs: autosave period
    explicit MainWindow(const QString& recoveryPath = {}, int autosaveMs = 30000, QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const { return doc_; }
    StudioSession* session() const { return session_; }
    QTabWidget* workspaces() const { return workspaces_; }
    CanvasScene* scene() const { return scene_; }
    CanvasView* view() const { return view_; }
    Inspector* inspector() const { return inspector_; }
    PalettePanel* palette() const { return palette_; }
    SummaryPanel* summary() const { return summary_; }
    TrainingMemoryEstimate* memoryEstimate() const { return memory_; }
    Recovery* recovery() const { return recovery_; }

    bool openFile(const QString& path);
    bool saveTo(const QString& path);
    bool importKeras(const QString& path);   // a Keras JSON graph, without weights
    bool importModel(const QString& path);   // ONNX, .keras, .h5 with weights (Keras JSON: importKeras)
    ModelImport* modelImport() const { return modelImport_; }
    // File > Import TensorBoard Logs without its folder dialog: imports `folder` into the project's
    // run store off the UI thread; the report shows when it is done. False while one is running.
    bool importTensorBoardLogs(const QString& folder);
    TensorBoardImport* tensorboardImport() const { return tensorboardImport_; }
    void offerRecovery();  // after a crash: asks whether to restore the autosaved project
    // Shows the window as it was saved; on a first start, maximized on a screen no taller than
    // a laptop's (startsMaximized), where 90% of it would squeeze the Train page's charts.
    void showFitted();
    static bool startsMaximized(QSize availableScreen);
    bool hasRecovery() const;

    // main_window_views.cpp
    StartPage* showStartPage();                 // window-modal, returns at once
    NetworkReportDialog* showNetworkReport();   // one per window, kept up to date while open
    void openImageFolder(const QString& dir);   // bound to the project (a new image template when empty)
    void openExample();                         // the built-in example, as `layerforge --example`
    static QStringList recentFiles();

    static QString templateDirectory();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();
    void createWorkspaces();  // main_window_workspaces.cpp
    void connectCharts(TrainingPanel* train);
    void addWorkspace(QWidget* page, const QString& title);
    // main_window_layout.cpp: the Design docks follow their page; geometry and docks persist.
    void showDesignDocks(bool show);
    void restoreLayout();
    void saveLayout();
    void resetLayout();
    void createActions();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createHelpMenu();
    void createAnalyzeMenu();  // main_window_views.cpp
    void createStatusBar();
    void updateTitle();
    void updateStatus();
    void updateRecentMenu();
    void addRecent(const QString& path);
    bool maybeSave();
    bool fileDone(bool ok, const QString& error, const QString& failure, const QString& path, const QString& done);
    bool save();
    bool saveAs();
    bool placeForRuns();
    void newProject();
    void newFromTemplate(const QString& path);
    void resetToReadableCopy();
    void openDialog();
    void importDialog();
    void createModelImport();
    void createTensorBoardImport();
    void addLayerAtCentre(const QString& type);
    void showError(const QString& title, const QString& message);

    ProjectDocument* doc_;
    StudioSession* session_;
    QTabWidget* workspaces_;
    CanvasScene* scene_;
    CanvasView* view_;
    Inspector* inspector_;
    PalettePanel* palette_;
    TrainingMemoryEstimate* memory_;
    SummaryPanel* summary_;
    Recovery* recovery_;
    ModelImport* modelImport_ = nullptr;
    TensorBoardImport* tensorboardImport_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QLabel* totals_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QByteArray defaultState_;  // the docks as first laid out, for View > Reset layout
    bool designDocksShown_ = true;
    bool restoredGeometry_ = false;  // restoreLayout() found a saved geometry: showFitted() keeps it
    QString copyOf_;  // the read-only project this untitled document is a copy of
};

}  // namespace lf::ui
