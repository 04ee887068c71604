#pragma once
// The Train workspace: the project's training settings and the next run's options on the
// left; on the right Start / Pause / Resume / Stop, the progress, a place for the live charts
// (setChartsWidget) and the device memory gauge. The panel owns the TrainingController; other
// panels reach it through controller() (charts: trainEvent; checkpoint browser: resumeFrom).
#include <QWidget>
#include <functional>

#include "training/training_controller.h"

class QLabel;
class QPushButton;
class QSplitter;

namespace lf::ui {

class DeviceGauge;
class RunOptionsForm;
class StudioSession;
class TrainingProgress;
class TrainingSettingsForm;

class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPanel(StudioSession* session, QWidget* parent = nullptr);

    TrainingController* controller() const { return controller_; }
    // Puts the live-chart widget above the gauge (the panel takes ownership); replaces the
    // placeholder or an earlier chart widget.
    void setChartsWidget(QWidget* charts);
    QWidget* chartsWidget() const;
    // Asked when Start is pressed; false keeps the run from starting (the window asks where an
    // untitled copy of a read-only project is saved first).
    void setStartGuard(std::function<bool()> guard) { startGuard_ = std::move(guard); }

    TrainingSettingsForm* settingsForm() const { return settings_; }
    RunOptionsForm* runOptions() const { return runOptions_; }
    TrainingProgress* progress() const { return progress_; }
    DeviceGauge* gauge() const { return gauge_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* resumeButton() const { return resume_; }
    QPushButton* stopButton() const { return stop_; }
    QLabel* blockedReason() const { return blocked_; }  // why Start is off for this graph; hidden when it can train

private:
    QWidget* buildControls();
    void updateButtons();

    QString mpirun_;  // Open MPI's launcher, looked up once: empty when it is not installed
    TrainingController* controller_;
    TrainingSettingsForm* settings_;
    RunOptionsForm* runOptions_;
    TrainingProgress* progress_;
    DeviceGauge* gauge_;
    QSplitter* chartsSplitter_;
    QPushButton *start_, *pause_, *resume_, *stop_;
    QLabel* blocked_;
    std::function<bool()> startGuard_;
};

}  // namespace lf::ui
