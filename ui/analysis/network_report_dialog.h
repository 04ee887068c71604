#pragma once
// Analyze Network (MATLAB's analyzeNetwork): the engine's report of the document's graph
// (graph/network_report.h) at the project's batch size and loss: its errors and warnings in a
// list (double-click one to select the layer) and every layer's cost in a sortable table.
// It follows the document while it is open; the report is shape inference only, so it is
// computed on the UI thread like the document's own analysis.
#include <QDialog>

#include "layerforge/graph/network_report.h"
#include "layerforge/project/project.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace lf::ui {

class LayerCostModel;
class ProjectDocument;

class NetworkReportDialog : public QDialog {
    Q_OBJECT
public:
    explicit NetworkReportDialog(ProjectDocument* doc, QWidget* parent = nullptr);

    const NetworkReport& report() const { return report_; }
    QTreeWidget* problems() const { return problems_; }
    QTableView* layers() const { return table_; }
    LayerCostModel* costs() const { return costs_; }
    QLabel* summary() const { return summary_; }

    void refresh();

Q_SIGNALS:
    void layerActivated(const QString& nodeId);

private:
    ProjectDocument* doc_;
    NetworkReport report_;
    QLabel* summary_;
    QTreeWidget* problems_;
    LayerCostModel* costs_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
};

// The report options the project implies: its batch size, loss and from_logits.
ReportOptions reportOptions(const Project& p);

}  // namespace lf::ui
