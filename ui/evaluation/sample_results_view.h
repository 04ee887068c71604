#pragma once
// Every sample of an evaluation (Sony NNC's per-sample results): a sortable table of true class,
// prediction and confidence, filtered by true class and by correct / incorrect, and exported
// as CSV (the rows shown).
#include <QWidget>

#include "evaluation/evaluation_job.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace lf::ui {

class SampleFilter;
class SampleResultsModel;

class SampleResultsView : public QWidget {
    Q_OBJECT
public:
    explicit SampleResultsView(QWidget* parent = nullptr);

    void setResult(const EvaluationResult& result);
    bool exportCsv(const QString& path, QString* error);  // the rows the filters show

    QComboBox* classFilter() const { return class_; }
    QComboBox* outcomeFilter() const { return outcome_; }
    QTableView* table() const { return table_; }
    SampleFilter* filter() const { return filter_; }
    QPushButton* exportButton() const { return export_; }

private:
    void updateCount();

    SampleResultsModel* model_;
    SampleFilter* filter_;
    QComboBox *class_, *outcome_;
    QTableView* table_;
    QLabel* count_;
    QPushButton* export_;
};

}  // namespace lf::ui
