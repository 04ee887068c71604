// Layout, the live refresh and the selection of the runs explorer; what its actions write to
// the store is in runs_explorer_actions.cpp.
#include "explorer/runs_explorer.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "checkpoints/store_refresher.h"
#include "explorer/explorer_snapshot.h"
#include "explorer/hyperparameter_scatter.h"
#include "explorer/parallel_coordinates.h"
#include "explorer/run_overlay.h"
#include "explorer/run_table_model.h"
#include "session/background_task.h"
#include "session/studio_session.h"
#include "tables/id_selection.h"
#include "widgets/banner.h"

namespace lf::ui {

namespace {

QStringList columnTitles(const QAbstractItemModel* m) {
    QStringList titles;
    for (int c = 0; c < m->columnCount(); ++c) titles << m->headerData(c, Qt::Horizontal).toString();
    return titles;
}

}  // namespace

RunsExplorer::RunsExplorer(StudioSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new RunTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView),
      filter_(new QLineEdit),
      banner_(new QLabel),
      details_(new QTabWidget),
      overlay_(new RunOverlay),
      parallel_(new ParallelCoordinates),
      scatter_(new HyperparameterScatter),
      refresher_(new StoreRefresher(this, session, [this](const QString& path) {
          runInBackground(this, [path] { return readExplorerSnapshot(path); }, [this](ExplorerSnapshot s) {
              if (refresher_->readDone()) applySnapshot(std::move(s));
          });
      })) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(RunTableModel::SortRole);
    proxy_->setFilterRole(RunTableModel::FilterRole);
    proxy_->setFilterKeyColumn(RunTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(RunTableModel::Run, Qt::DescendingOrder);  // the newest first
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::SelectedClicked);
    view_->verticalHeader()->hide();
    view_->setWordWrap(false);  // one line per run; a long name is elided and in full in its tooltip
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    filter_->setPlaceholderText(tr("Filter by name, tag, note, status…"));
    filter_->setClearButtonEnabled(true);
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->hide();

    auto* toolbar = new QToolBar;
    createActions();
    toolbar->addActions({star_, tag_, delete_});
    toolbar->addSeparator();
    toolbar->addWidget(filter_);
    view_->addActions({star_, tag_, delete_});

    overlay_->setStorePath(session_->storePath());
    details_->addTab(overlay_, tr("Curves"));
    details_->addTab(parallel_, tr("Parallel coordinates"));
    details_->addTab(scatter_, tr("Scatter"));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addWidget(banner_);
    layout->addWidget(split, 1);

    connect(filter_, &QLineEdit::textChanged, this, &RunsExplorer::setFilter);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsExplorer::onSelectionChanged);
    connect(session_, &StudioSession::projectSwitched, this, &RunsExplorer::refresh);
    connect(parallel_, &ParallelCoordinates::runClicked, this, &RunsExplorer::selectClickedRun);
    connect(scatter_, &HyperparameterScatter::runClicked, this, &RunsExplorer::selectClickedRun);
    updateActions();
    refresh();
}

void RunsExplorer::setFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text);  // comes back here through textChanged
    proxy_->setFilterFixedString(text);
}

void RunsExplorer::setRefreshInterval(int ms) { refresher_->setInterval(ms); }
void RunsExplorer::refresh() { refresher_->refresh(); }

void RunsExplorer::applySnapshot(ExplorerSnapshot snapshot) {
    const QList<qint64> selected = selectedRuns();
    if (!snapshot.error.isEmpty()) {
        showMessage(tr("Cannot read the run store %1: %2\nThe runs are not shown; restore the file from a backup or "
                       "move it away to start a new store.")
                        .arg(snapshot.path, snapshot.error),
                    true);
        bannerIsStoreState_ = true;
    } else if (snapshot.missing || snapshot.runs.empty()) {
        showMessage(tr("No runs yet in %1. Train the model and its runs appear here.").arg(snapshot.path), false);
        bannerIsStoreState_ = true;
    } else if (bannerIsStoreState_) {
        banner_->hide();
    }
    overlay_->setStorePath(snapshot.path);
    // While a run trains the store is read again every second: the user's column widths, order
    // and scroll position outlive the model's reset as long as the columns stay the same.
    QHeaderView* header = view_->horizontalHeader();
    const QStringList columnsBefore = columnTitles(model_);
    const QByteArray headerState = header->saveState();
    const int down = view_->verticalScrollBar()->value(), across = view_->horizontalScrollBar()->value();
    model_->setSnapshot(std::move(snapshot));
    if (columnTitles(model_) == columnsBefore) {
        header->restoreState(headerState);
        view_->verticalScrollBar()->setValue(down);
        view_->horizontalScrollBar()->setValue(across);
    } else {
        sizeFixedColumns();
    }
    parallel_->setSnapshot(model_->snapshot());
    scatter_->setSnapshot(model_->snapshot());
    selectRuns(selected);  // the overlay re-reads the curves: a run training now grows
    Q_EMIT refreshed();
}

// The star, id, name and start columns as wide as what they hold, on one line each; the
// metric and setting columns at least as wide as their titles ("test_accuracy (final)").
void RunsExplorer::sizeFixedColumns() {
    QHeaderView* header = view_->horizontalHeader();
    const QFontMetrics fm = view_->fontMetrics();
    const int pad = 2 * view_->style()->pixelMetric(QStyle::PM_HeaderMargin) + 16;  // room for the sort arrow
    header->resizeSection(RunTableModel::Star, fm.horizontalAdvance(QStringLiteral("★")) + pad);
    header->resizeSection(RunTableModel::Run, fm.horizontalAdvance(QStringLiteral("00000")) + pad);
    header->resizeSection(RunTableModel::Name, fm.averageCharWidth() * 32);
    header->resizeSection(RunTableModel::Started, fm.horizontalAdvance(QStringLiteral("2026-12-31 23:59")) + pad);
    for (int c = RunTableModel::Started + 1; c < model_->columnCount(); ++c)
        header->resizeSection(c, std::max(header->defaultSectionSize(), header->sectionSizeHint(c)));
}

void RunsExplorer::showMessage(const QString& text, bool error) {
    bannerIsStoreState_ = false;
    showBanner(banner_, text, error);
    if (error) Q_EMIT failed(text);
}

QList<qint64> RunsExplorer::selectedRuns() const { return selectedIds(view_, RunTableModel::IdRole); }

void RunsExplorer::selectRuns(const QList<qint64>& ids) {
    {
        const QSignalBlocker block(view_->selectionModel());  // one update below
        selectIds(view_, ids, RunTableModel::IdRole);
    }
    view_->viewport()->update();
    onSelectionChanged();
}

void RunsExplorer::selectClickedRun(qint64 run) {
    selectRuns({run});
    for (int r = 0; r < proxy_->rowCount(); ++r)
        if (proxy_->index(r, 0).data(RunTableModel::IdRole).toLongLong() == run) view_->scrollTo(proxy_->index(r, 0));
}

void RunsExplorer::onSelectionChanged() {
    const QList<qint64> ids = selectedRuns();
    std::vector<const ExplorerRun*> runs;
    for (qint64 id : ids)
        if (const ExplorerRun* r = model_->find(id)) runs.push_back(r);
    overlay_->setRuns(runs);
    parallel_->setSelectedRuns(ids);
    scatter_->setSelectedRuns(ids);
    updateActions();
}

void RunsExplorer::updateActions() {
    const QList<qint64> ids = selectedRuns();
    bool allStarred = !ids.isEmpty();
    for (qint64 id : ids)
        if (const ExplorerRun* r = model_->find(id)) allStarred = allStarred && r->info().starred;
    star_->setEnabled(!ids.isEmpty());
    star_->setText(allStarred ? tr("Unstar") : tr("Star"));
    tag_->setEnabled(!ids.isEmpty());
    delete_->setEnabled(!ids.isEmpty());
}

}  // namespace lf::ui
