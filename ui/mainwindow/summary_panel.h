#pragma once
// The "Model summary" dock: the table `layerforge-cli info` prints (layer and type, output
// shape, parameter count, inputs), then the totals, kept current on every document change.
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
    void refresh();  // runs on its own a moment after each change (coalesced, off the edit path)

private:
    QTimer pending_;
    ProjectDocument* doc_;
    TrainingMemoryEstimate* memory_;
    QTreeWidget* table_;
    QLabel* totals_;
};

}  // namespace lf::ui
