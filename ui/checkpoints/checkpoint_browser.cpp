// Layout, the live refresh and the selection of the checkpoint browser; what the actions do to
// the store is in checkpoint_browser_actions.cpp.
#include "checkpoints/checkpoint_browser.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "checkpoints/checkpoint_table_model.h"
#include "checkpoints/compare_chart.h"
#include "checkpoints/settings_diff_view.h"
#include "checkpoints/store_refresher.h"
#include "checkpoints/store_snapshot.h"
#include "session/background_task.h"
#include "session/studio_session.h"
#include "tables/id_selection.h"
#include "widgets/banner.h"

namespace lf::ui {

CheckpointBrowser::CheckpointBrowser(StudioSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new CheckpointTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView),
      filter_(new QLineEdit),
      banner_(new QLabel),
      details_(new QTabWidget),
      chart_(new CompareChart),
      diff_(new SettingsDiffView),
      refresher_(new StoreRefresher(this, session, [this](const QString& path) {
          runInBackground(this, [path] { return readStoreSnapshot(path); }, [this](StoreSnapshot s) {
              if (refresher_->readDone()) applySnapshot(std::move(s));
          });
      })) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(CheckpointTableModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(0, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    filter_->setPlaceholderText(tr("Filter by run, step, metric value…"));
    filter_->setClearButtonEnabled(true);
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->hide();

    auto* toolbar = new QToolBar;
    createActions();
    toolbar->addActions({restore_, resume_, pin_, delete_, export_, compare_});
    toolbar->addSeparator();
    toolbar->addWidget(filter_);
    view_->addActions({restore_, resume_, pin_, delete_, export_, compare_});

    details_->addTab(chart_, tr("Compare"));
    details_->addTab(diff_, tr("Settings diff"));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addWidget(banner_);
    layout->addWidget(split, 1);

    connect(filter_, &QLineEdit::textChanged, this, &CheckpointBrowser::setFilter);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CheckpointBrowser::updateActions);
    connect(view_, &QTableView::doubleClicked, this, [this] { restore_->trigger(); });
    connect(session_, &StudioSession::projectSwitched, this, [this] {
        chart_->setCheckpoints({});  // the previous project's comparison
        refresh();
    });
    updateActions();
    refresh();
}

void CheckpointBrowser::setFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);  // comes back here through textChanged
    proxy_->setFilterFixedString(text);
}

void CheckpointBrowser::setRefreshInterval(int ms) { refresher_->setInterval(ms); }
void CheckpointBrowser::refreshIfChanged() { refresher_->refreshIfChanged(); }
void CheckpointBrowser::refresh() { refresher_->refresh(); }

void CheckpointBrowser::applySnapshot(StoreSnapshot snapshot) {
    const QList<qint64> selected = selectedCheckpoints();
    if (!snapshot.error.isEmpty()) {
        showMessage(tr("Cannot read the run store %1: %2\nThe checkpoints are not shown; restore the file from a "
                       "backup or move it away to start a new store.")
                        .arg(snapshot.path, snapshot.error),
                    true);
        bannerIsStoreState_ = true;
    } else if (snapshot.missing || snapshot.checkpoints.empty()) {
        showMessage(tr("No checkpoints yet in %1. Train with checkpoints enabled and they appear here.").arg(snapshot.path),
                    false);
        bannerIsStoreState_ = true;
    } else if (bannerIsStoreState_) {
        banner_->hide();
    }
    model_->setCheckpoints(std::move(snapshot.checkpoints));
    diff_->setRuns(std::move(snapshot.runs));
    selectCheckpoints(selected);
    updateActions();
    Q_EMIT refreshed();
}

void CheckpointBrowser::showMessage(const QString& text, bool error) {
    bannerIsStoreState_ = false;
    showBanner(banner_, text, error);
    if (error) Q_EMIT failed(text);
}

QList<qint64> CheckpointBrowser::selectedCheckpoints() const { return selectedIds(view_, CheckpointTableModel::IdRole); }

void CheckpointBrowser::selectCheckpoints(const QList<qint64>& ids) { selectIds(view_, ids, CheckpointTableModel::IdRole); }

void CheckpointBrowser::updateActions() {
    const QList<qint64> ids = selectedCheckpoints();
    bool allPinned = !ids.isEmpty();
    for (qint64 id : ids)
        if (const CheckpointRow* r = model_->find(id)) allPinned = allPinned && r->info.pinned;
    restore_->setEnabled(ids.size() == 1);
    resume_->setEnabled(ids.size() == 1);
    export_->setEnabled(ids.size() == 1);
    pin_->setEnabled(!ids.isEmpty());
    pin_->setText(allPinned ? tr("Unpin") : tr("Pin"));
    delete_->setEnabled(!ids.isEmpty());
    compare_->setEnabled(ids.size() >= 2);
}

}  // namespace lf::ui
