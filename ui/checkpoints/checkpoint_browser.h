#pragma once
// The Checkpoints workspace: every checkpoint of the project's run store in a sortable,
// filterable table, with Restore (weights become the session's current weights), Resume
// training, Pin/Unpin, Delete, Export, Compare (a bar chart of the selected checkpoints'
// metrics) and the settings diff between two runs. Reads and writes happen on worker threads;
// the table refreshes when the session says the store changed and, while visible, when the
// store file changes (another process, e.g. the CLI, training into it).
#include <QList>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace lf::ui {

class CheckpointTableModel;
class CompareChart;
class SettingsDiffView;
class StoreRefresher;
class StudioSession;
struct StoreSnapshot;

class CheckpointBrowser : public QWidget {
    Q_OBJECT
public:
    explicit CheckpointBrowser(StudioSession* session, QWidget* parent = nullptr);

    CheckpointTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    CompareChart* compareChart() const { return chart_; }
    SettingsDiffView* settingsDiff() const { return diff_; }
    QLabel* banner() const { return banner_; }
    QAction* restoreAction() const { return restore_; }
    QAction* resumeAction() const { return resume_; }
    QAction* pinAction() const { return pin_; }
    QAction* deleteAction() const { return delete_; }
    QAction* exportAction() const { return export_; }
    QAction* compareAction() const { return compare_; }

    QList<qint64> selectedCheckpoints() const;  // in table order
    void selectCheckpoints(const QList<qint64>& ids);
    void setFilter(const QString& text);
    void setRefreshInterval(int ms);  // the poll while visible (default 2 s)

public Q_SLOTS:
    void refresh();           // re-reads the store in the background; emits refreshed()
    void refreshIfChanged();  // the timer: only when the store file changed
    void restore(qint64 id);  // emits restored(id) after the session's weights are set
    void setPinned(const QList<qint64>& ids, bool pinned);
    void deleteCheckpoints(const QList<qint64>& ids);  // no confirmation; pinned ones are refused
    void compare(const QList<qint64>& ids);

Q_SIGNALS:
    void resumeRequested(qint64 checkpointId);
    void exportRequested(qint64 checkpointId);
    void restored(qint64 checkpointId);
    void refreshed();
    void failed(const QString& message);  // also shown in the banner

private:
    void createActions();
    void applySnapshot(StoreSnapshot snapshot);
    void updateActions();
    void askToDelete();
    void writeStore(const QList<qint64>& ids, bool pin, bool remove);
    void showMessage(const QString& text, bool error);

    StudioSession* session_;
    CheckpointTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    QLabel* banner_;
    QTabWidget* details_;
    CompareChart* chart_;
    SettingsDiffView* diff_;
    StoreRefresher* refresher_;
    QAction* restore_ = nullptr;
    QAction* resume_ = nullptr;
    QAction* pin_ = nullptr;
    QAction* delete_ = nullptr;
    QAction* export_ = nullptr;
    QAction* compare_ = nullptr;
    bool bannerIsStoreState_ = false;  // the banner tells the store's state, not an action's outcome
};

}  // namespace lf::ui
