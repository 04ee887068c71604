#include "analysis/network_report_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "analysis/layer_cost_model.h"
#include "document/model_stats.h"
#include "document/project_document.h"

namespace lf::ui {

namespace {

// QTreeView asks a delegate for a row's height without the column's width, so wrapped text
// would be cut to one line: this one measures the text at the width the column has.
class WrappingDelegate : public QStyledItemDelegate {
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), view_(view) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        const QSize base = QStyledItemDelegate::sizeHint(option, index);
        const int width = view_->header()->sectionSize(index.column()) - 8;
        if (width <= 0) return base;
        const QRect text = o.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, o.text);
        return QSize(base.width(), std::max(base.height(), text.height() + 6));
    }

private:
    QTreeView* view_;
};

}  // namespace

ReportOptions reportOptions(const Project& p) {
    ReportOptions o;
    o.batch = std::max<std::int64_t>(1, p.training.batch_size);
    o.loss = p.training.loss;
    if (auto it = p.training.loss_params.find("from_logits"); it != p.training.loss_params.end())
        if (const bool* b = std::get_if<bool>(&it->second)) o.from_logits = *b;
    return o;
}

NetworkReportDialog::NetworkReportDialog(ProjectDocument* doc, QWidget* parent)
    : QDialog(parent), doc_(doc), summary_(new QLabel), problems_(new QTreeWidget), costs_(new LayerCostModel(this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView) {
    setWindowTitle(tr("Analyze Network"));
    setObjectName("networkReport");
    summary_->setWordWrap(true);
    problems_->setHeaderLabels({tr("Severity"), tr("Layer"), tr("Problem")});
    problems_->setRootIsDecorated(false);
    problems_->setWordWrap(true);  // a warning says what to change: show all of it
    problems_->setTextElideMode(Qt::ElideNone);
    problems_->setItemDelegateForColumn(2, new WrappingDelegate(problems_));
    // Row heights follow the wrapped text only when laid out again at the column's new width.
    connect(problems_->header(), &QHeaderView::sectionResized, problems_, [this] { problems_->doItemsLayout(); });
    problems_->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    sorted_->setSourceModel(costs_);
    sorted_->setSortRole(LayerCostModel::SortRole);
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // graph order until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(problems_);
    split->addWidget(table_);
    split->setStretchFactor(1, 2);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);

    connect(doc_, &ProjectDocument::changed, this, [this] {
        if (isVisible()) refresh();
    });
    auto activate = [this](const QString& id) {
        if (!id.isEmpty()) Q_EMIT layerActivated(id);
    };
    connect(problems_, &QTreeWidget::itemDoubleClicked, this,
            [activate](QTreeWidgetItem* item) { activate(item->data(1, Qt::UserRole).toString()); });
    connect(table_, &QTableView::doubleClicked, this,
            [activate](const QModelIndex& i) { activate(i.data(LayerCostModel::NodeRole).toString()); });
    resize(900, 560);
    refresh();
}

void NetworkReportDialog::refresh() {
    report_ = analyze_network(doc_->project().graph, doc_->analysis(), reportOptions(doc_->project()));
    problems_->clear();
    auto add = [this](const Diagnostic& d, bool error) {
        const Node* n = doc_->project().graph.find(d.node);
        const QString layer = n ? QString::fromStdString(n->name.empty() ? n->id : n->name) : tr("(graph)");
        QString message = QString::fromStdString(d.message);
        if (!d.field.empty()) message = QString::fromStdString(d.field) + ": " + message;
        auto* item = new QTreeWidgetItem(problems_, {error ? tr("Error") : tr("Warning"), layer, message});
        item->setIcon(0, style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
        item->setData(1, Qt::UserRole, QString::fromStdString(d.node));
        item->setToolTip(2, message);
    };
    for (const Diagnostic& d : report_.errors) add(d, true);
    for (const Diagnostic& d : report_.warnings) add(d, false);
    if (report_.errors.empty() && report_.warnings.empty())
        new QTreeWidgetItem(problems_, {tr("OK"), QString(), tr("No problems found.")});
    costs_->setRows(report_.layers);
    summary_->setText(tr("%1 errors, %2 warnings · %3 layers · %4 parameters (%5 trainable) · %6 FLOPs per sample · "
                         "batch %7: outputs %8, weights %9, about %10 to train (outputs, weights and their gradients)")
                          .arg(report_.errors.size())
                          .arg(report_.warnings.size())
                          .arg(report_.layers.size())
                          .arg(formatCount(report_.total_params), formatCount(report_.trainable_params),
                               formatCount(report_.flops))
                          .arg(report_.batch)
                          .arg(formatBytes(report_.activation_bytes), formatBytes(report_.weight_bytes),
                               formatBytes(report_.training_bytes)));
}

}  // namespace lf::ui
