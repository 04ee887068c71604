#include "profile/layer_profile_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "canvas/canvas_scene.h"
#include "canvas/node_item.h"
#include "document/project_document.h"
#include "profile/layer_profile_model.h"
#include "training/training_controller.h"

namespace lf::ui {

LayerProfileView::LayerProfileView(ProjectDocument* doc, CanvasScene* scene, QWidget* parent)
    : QWidget(parent), doc_(doc), scene_(scene), model_(new LayerProfileModel(this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView), caption_(new QLabel) {
    setObjectName("profilePanel");
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(LayerProfileModel::SortRole);
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(LayerProfileModel::Total, Qt::DescendingOrder);  // the costliest first
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    caption_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
    clear();
    connect(doc_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind == DocumentChange::Reset) clear();  // another project: the profile is not its
        else if (c.kind == DocumentChange::GraphChanged) updateCards();  // new cards get their line
    });
}

void LayerProfileView::follow(TrainingController* controller) {
    connect(controller, &TrainingController::trainEvent, this, [this](const TrainEvent& e) {
        if (!e.profile.empty()) showProfile(e.profile, e.step, QString::fromStdString(e.execution));
    });
}

void LayerProfileView::showProfile(const PlanProfile& profile, qint64 step, const QString& execution) {
    model_->setRows(profileRows(profile, doc_->project().graph));
    double total = 0;
    for (const LayerProfileRow& r : model_->rows()) total += r.forward_ms + r.backward_ms;
    QString text = tr("Per-layer time of the training plan after %1 steps: %2 ms per step in the layers' "
                      "kernels (the loss, the optimizer and data loading are not included).")
                       .arg(step)
                       .arg(total, 0, 'f', 2);
    if (!execution.isEmpty()) text += "\n" + tr("Passes: %1.").arg(execution);
    caption_->setText(text);
    updateCards();
}

void LayerProfileView::clear() {
    model_->setRows({});
    caption_->setText(tr("Train the model to see each layer's forward and backward time and memory here and on "
                         "its card."));
    updateCards();
}

void LayerProfileView::updateCards() {
    std::unordered_map<std::string, QString> lines;
    for (const LayerProfileRow& r : model_->rows()) lines.emplace(r.node.toStdString(), profileCardText(r));
    for (const Node& n : doc_->project().graph.nodes)
        if (NodeItem* item = scene_->nodeItem(n.id)) {
            auto it = lines.find(n.id);
            item->setProfileText(it == lines.end() ? QString() : it->second);
        }
}

}  // namespace lf::ui
