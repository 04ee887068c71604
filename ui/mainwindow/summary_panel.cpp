#include "mainwindow/summary_panel.h"

#include <map>

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "document/model_stats.h"
#include "document/project_document.h"
#include "document/training_memory.h"

namespace lf::ui {

namespace {

constexpr int kComputeColumn = 4;

}  // namespace

SummaryPanel::SummaryPanel(ProjectDocument* doc, TrainingMemoryEstimate* memory, QWidget* parent)
    : QWidget(parent), doc_(doc), memory_(memory), table_(new QTreeWidget), precision_(new QLabel), totals_(new QLabel) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    table_->setRootIsDecorated(false);
    table_->setAlternatingRowColors(true);
    table_->setHeaderLabels({tr("Layer (type)"), tr("Output shape"), tr("Param #"), tr("Connected to"), tr("Computes in")});
    table_->headerItem()->setToolTip(kComputeColumn, tr("The type the layer's kernel computes in under the training "
                                                        "precision policy"));
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    precision_->setWordWrap(true);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(table_);
    layout->addWidget(precision_);
    layout->addWidget(totals_);
    connect(doc_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind != DocumentChange::NodesMoved && c.kind != DocumentChange::GroupsChanged) pending_.start();
    });
    pending_.setSingleShot(true);
    pending_.setInterval(60);
    connect(&pending_, &QTimer::timeout, this, &SummaryPanel::refresh);
    connect(memory_, &TrainingMemoryEstimate::changed, this, [this] { pending_.start(); });
    refresh();
}

void SummaryPanel::refresh() {
    const Graph& g = doc_->graph();
    const Analysis& a = doc_->analysis();
    table_->setUpdatesEnabled(false);
    table_->clear();
    std::vector<std::string> ids = a.order.size() == g.nodes.size() ? a.order : std::vector<std::string>{};
    if (ids.empty())
        for (const Node& n : g.nodes) ids.push_back(n.id);
    std::map<std::string, const Node*> byId;
    for (const Node& n : g.nodes) byId[n.id] = &n;
    std::map<std::string, std::map<int, QString>> inputsOf;
    for (const Edge& e : g.edges)
        if (byId.count(e.from.node)) inputsOf[e.to.node][e.to.port] = QString::fromStdString(byId[e.from.node]->name);
    const std::map<std::string, DType>& compute = memory_->computeTypes();
    QList<QTreeWidgetItem*> rows;
    int half = 0;
    for (const std::string& id : ids) {
        const Node& n = *byId[id];
        const NodeInfo& info = a.nodes.at(id);
        QStringList inputs;
        for (const auto& [port, name] : inputsOf[id]) inputs << name;
        const auto type = compute.find(id);
        half += type != compute.end() && type->second != DType::Float32;
        auto* row = new QTreeWidgetItem({tr("%1 (%2)").arg(QString::fromStdString(n.name), QString::fromStdString(n.type)),
                                         info.shaped ? QString::fromStdString(info.layer.output.str()) : tr("?"),
                                         formatCount(info.param_count), inputs.join(", "),
                                         memory_->pending()     ? QStringLiteral("…")
                                         : type != compute.end() ? QString(to_string(type->second))
                                                                 : QString()});
        row->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        rows << row;
    }
    table_->addTopLevelItems(rows);
    table_->setUpdatesEnabled(true);
    const Precision p = doc_->project().training.precision;
    const QString policy = QString(to_string(p));
    const QString halfType = to_string(compute_dtype(p == Precision::Float32 ? Precision::MixedBFloat16 : p));
    precision_->setText(memory_->pending() || compute.empty()
                            ? tr("Precision: %1").arg(policy)
                            : tr("Precision: %1 (%2 of %3 layers compute in %4)").arg(policy).arg(half).arg(rows.size()).arg(halfType));
    totals_->setText(tr("Total params: %1\nTrainable params: %2\nNon-trainable params: %3\nFLOPs per sample (forward): %4\n"
                        "Estimated training memory at batch %5: %6")
                         .arg(formatCount(a.total_params), formatCount(a.trainable_params),
                              formatCount(a.total_params - a.trainable_params), formatCount(a.flops))
                         .arg(doc_->project().training.batch_size)
                         .arg(memoryText(*memory_)));
}

}  // namespace lf::ui
