#pragma once
// The studio window: palette (left), canvas (centre), inspector and model summary (right),
// totals in the status bar. File handling lives in main_window_files.cpp, menus and shortcuts
// in main_window_actions.cpp.
#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QSpinBox;

namespace lf::ui {

class CanvasScene;
class CanvasView;
class Inspector;
class PalettePanel;
class ProjectDocument;
class Recovery;
class SummaryPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // recoveryPath empty: the default location; intervalMs: autosave period
    explicit MainWindow(const QString& recoveryPath = {}, int autosaveMs = 30000, QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const { return doc_; }
    CanvasScene* scene() const { return scene_; }
    CanvasView* view() const { return view_; }
    Inspector* inspector() const { return inspector_; }
    PalettePanel* palette() const { return palette_; }
    SummaryPanel* summary() const { return summary_; }
    Recovery* recovery() const { return recovery_; }

    bool openFile(const QString& path);
    bool saveTo(const QString& path);
    bool importKeras(const QString& path);
    void offerRecovery();  // after a crash: asks whether to restore the autosaved project

    static QString templateDirectory();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();
    void createActions();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createStatusBar();
    void updateTitle();
    void updateStatus();
    void updateRecentMenu();
    void addRecent(const QString& path);
    bool maybeSave();
    bool fileDone(bool ok, const QString& error, const QString& failure, const QString& path, const QString& done);
    bool save();
    bool saveAs();
    void newProject();
    void newFromTemplate(const QString& path);
    void openDialog();
    void importDialog();
    void addLayerAtCentre(const QString& type);
    void showError(const QString& title, const QString& message);

    ProjectDocument* doc_;
    CanvasScene* scene_;
    CanvasView* view_;
    Inspector* inspector_;
    PalettePanel* palette_;
    SummaryPanel* summary_;
    Recovery* recovery_;
    QMenu* recentMenu_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QLabel* totals_ = nullptr;
    QSpinBox* batch_ = nullptr;
};

}  // namespace lf::ui
