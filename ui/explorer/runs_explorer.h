#pragma once
// The Runs workspace: every run of the project's store in a sortable, filterable table
// (RunTableModel: status, start, duration, the settings that differ, final and best metrics,
// tags, an editable note, a star), with the selected runs' curves overlaid (RunOverlay), a
// parallel-coordinates plot and a scatter of the settings against a metric (clicking a line or
// point selects its run), and Star, Tag and Delete (confirmed; a run training now is refused).
// Reads and writes run on worker threads; the table refreshes as the checkpoint browser does
// (StoreRefresher), so a run training in the studio or the CLI shows live.
#include <QList>
#include <QWidget>
#include <functional>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace lf {
class RunStore;
}

namespace lf::ui {

class HyperparameterScatter;
class ParallelCoordinates;
class RunOverlay;
class RunTableModel;
class StoreRefresher;
class StudioSession;
struct ExplorerSnapshot;

class RunsExplorer : public QWidget {
    Q_OBJECT
public:
    explicit RunsExplorer(StudioSession* session, QWidget* parent = nullptr);

    RunTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    RunOverlay* overlay() const { return overlay_; }
    ParallelCoordinates* parallel() const { return parallel_; }
    HyperparameterScatter* scatter() const { return scatter_; }
    QTabWidget* details() const { return details_; }
    QLabel* banner() const { return banner_; }
    QAction* starAction() const { return star_; }
    QAction* tagAction() const { return tag_; }
    QAction* deleteAction() const { return delete_; }

    QList<qint64> selectedRuns() const;  // in table order
    void selectRuns(const QList<qint64>& ids);  // and shows them in the overlay and the plots
    void setFilter(const QString& text);
    void setRefreshInterval(int ms);

public Q_SLOTS:
    void refresh();
    void setStarred(const QList<qint64>& ids, bool starred);
    void addTags(const QList<qint64>& ids, const QStringList& tags);
    // No confirmation (the Delete action asks first); a run training now is refused and named.
    void deleteRuns(const QList<qint64>& ids);
    void selectClickedRun(qint64 run);  // a plot's line or point was clicked

Q_SIGNALS:
    void refreshed();
    void written();                       // a store write finished (successfully or not)
    void failed(const QString& message);  // also shown in the banner

private:
    void createActions();
    void applySnapshot(ExplorerSnapshot snapshot);
    void sizeFixedColumns();
    void onSelectionChanged();
    void updateActions();
    void askToDelete();
    void askForTags();
    void writeStore(std::function<std::string(RunStore&)> write);
    void showMessage(const QString& text, bool error);

    StudioSession* session_;
    RunTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    QLabel* banner_;
    QTabWidget* details_;
    RunOverlay* overlay_;
    ParallelCoordinates* parallel_;
    HyperparameterScatter* scatter_;
    StoreRefresher* refresher_;
    QAction* star_ = nullptr;
    QAction* tag_ = nullptr;
    QAction* delete_ = nullptr;
    bool bannerIsStoreState_ = false;
};

}  // namespace lf::ui
