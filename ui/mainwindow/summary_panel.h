#pragma once
// The "Model summary" dock: the table `layerforge-cli info` prints (layer and type, output
// shape, parameter count, inputs, and the type each layer computes in under the project's
// precision policy), then the totals, kept current on every document change. The compute types
// and the memory figure come from the engine off the UI thread (TrainingMemoryEstimate).
#include <QTimer>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace lf::ui {

class ProjectDocument;
class TrainingMemoryEstimate;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    SummaryPanel(ProjectDocument* doc, TrainingMemoryEstimate* memory, QWidget* parent = nullptr);
    QTreeWidget* table() const { return table_; }
    QLabel* precision() const { return precision_; }  // the policy and how many layers compute in bfloat16
    void refresh();  // runs on its own a moment after each change (coalesced, off the edit path)

private:
    QTimer pending_;
    ProjectDocument* doc_;
    TrainingMemoryEstimate* memory_;
    QTreeWidget* table_;
    QLabel* precision_;
    QLabel* totals_;
};

}  // namespace lf::ui
