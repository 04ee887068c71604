#pragma once
// Every evaluated sample as a table (sample, true class, predicted class, confidence, correct),
// and the filter in front of it: by true class and by correct / incorrect. Sorting compares the
// raw values (SortRole), not the displayed text.
#include <QSortFilterProxyModel>
#include <QStringList>

#include "evaluation/evaluation_job.h"
#include "tables/row_table_model.h"

namespace lf::ui {

class SampleResultsModel : public RowTableModel<SampleResult> {
    Q_OBJECT
public:
    enum Column { Sample, Label, Predicted, Confidence, Correct, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit SampleResultsModel(QObject* parent = nullptr) : RowTableModel(ColumnCount, parent) {}
    void setResults(std::vector<SampleResult> samples, QStringList classNames);
    const QStringList& classNames() const { return classNames_; }

    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QStringList classNames_;
};

class SampleFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Outcome { Any, Correct, Incorrect };

    explicit SampleFilter(SampleResultsModel* source, QObject* parent = nullptr);
    void setTrueClass(int label);  // -1: every class
    void setOutcome(Outcome outcome);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    SampleResultsModel* source_;
    int label_ = -1;
    Outcome outcome_ = Outcome::Any;
};

// The rows `model` shows (a filter's), in its order, as CSV with a header:
//   sample,label,predicted,confidence,correct
// Class names are quoted when they need it.
QString samplesCsv(const QAbstractItemModel& model);

}  // namespace lf::ui
