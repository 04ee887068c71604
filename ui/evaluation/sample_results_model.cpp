#include "evaluation/sample_results_model.h"

namespace lf::ui {

void SampleResultsModel::setResults(std::vector<SampleResult> samples, QStringList classNames) {
    classNames_ = std::move(classNames);  // read by data() once the rows are reset
    setRows(std::move(samples));
}

QVariant SampleResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != SortRole)) return {};
    const SampleResult& s = row(index.row());
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Sample: return s.index;
    case Label: return sort ? QVariant(s.label) : QVariant(classNames_.value(s.label));
    case Predicted: return sort ? QVariant(s.predicted) : QVariant(classNames_.value(s.predicted));
    case Confidence: return sort ? QVariant(double(s.confidence)) : QVariant(QString::number(s.confidence * 100, 'f', 1) + "%");
    case Correct: return sort ? QVariant(s.label == s.predicted) : QVariant(s.label == s.predicted ? tr("yes") : tr("no"));
    default: return {};
    }
}

QVariant SampleResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Sample: return tr("Sample");
    case Label: return tr("True class");
    case Predicted: return tr("Predicted");
    case Confidence: return tr("Confidence");
    case Correct: return tr("Correct");
    default: return {};
    }
}

SampleFilter::SampleFilter(SampleResultsModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), source_(source) {
    setSourceModel(source);
    setSortRole(SampleResultsModel::SortRole);
}

void SampleFilter::setTrueClass(int label) {
    label_ = label;
    invalidateFilter();
}

void SampleFilter::setOutcome(Outcome outcome) {
    outcome_ = outcome;
    invalidateFilter();
}

bool SampleFilter::filterAcceptsRow(int row, const QModelIndex&) const {
    const SampleResult& s = source_->row(row);
    if (label_ >= 0 && s.label != label_) return false;
    const bool correct = s.label == s.predicted;
    return outcome_ == Outcome::Any || correct == (outcome_ == Outcome::Correct);
}

namespace {

QString csvField(const QString& text) {
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n')) return text;
    return '"' + QString(text).replace('"', "\"\"") + '"';
}

}  // namespace

QString samplesCsv(const QAbstractItemModel& model) {
    using C = SampleResultsModel::Column;
    QString out = QStringLiteral("sample,label,predicted,confidence,correct\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        auto cell = [&](int column, int role) { return model.data(model.index(r, column), role); };
        out += cell(C::Sample, Qt::DisplayRole).toString() + ',' + csvField(cell(C::Label, Qt::DisplayRole).toString()) +
               ',' + csvField(cell(C::Predicted, Qt::DisplayRole).toString()) + ',' +
               QString::number(cell(C::Confidence, SampleResultsModel::SortRole).toDouble(), 'f', 6) + ',' +
               (cell(C::Correct, SampleResultsModel::SortRole).toBool() ? "1" : "0") + '\n';
    }
    return out;
}

}  // namespace lf::ui
