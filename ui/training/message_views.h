#pragma once
// Puts the log dock (bottom, every workspace) and the error banner (above the workspaces) on a
// main window, and connects them to the training controller: its lines go to the log, its
// failures to the log in red and to the banner, which a new run clears.
class QMainWindow;

namespace lf::ui {

class ErrorBanner;
class LogView;
class TrainingController;

struct MessageViews {
    LogView* log;
    ErrorBanner* banner;
};

MessageViews installMessageViews(QMainWindow* window, TrainingController* controller);

}  // namespace lf::ui
