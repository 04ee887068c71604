#pragma once
// The Profile workspace (Sony NNC's per-layer profile): during and after a run, every layer's
// forward and backward time per step, total time, share and memory, from the engine's own
// timings (Plan::profile, carried by the training events), in a sortable table and on each
// layer's canvas card. Opening another project clears it.
#include <QWidget>

#include "layerforge/backend/plan.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace lf::ui {

class CanvasScene;
class LayerProfileModel;
class ProjectDocument;
class TrainingController;

class LayerProfileView : public QWidget {
    Q_OBJECT
public:
    LayerProfileView(ProjectDocument* doc, CanvasScene* scene, QWidget* parent = nullptr);

    // Takes the profile of every training event that carries one.
    void follow(TrainingController* controller);
    // `execution`: how the plan's passes ran (Plan::execution; a GPU's CUDA graphs), "" for none.
    void showProfile(const PlanProfile& profile, qint64 step, const QString& execution = {});
    void clear();

    LayerProfileModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLabel* caption() const { return caption_; }

private:
    void updateCards();

    ProjectDocument* doc_;
    CanvasScene* scene_;
    LayerProfileModel* model_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    QLabel* caption_;
};

}  // namespace lf::ui
