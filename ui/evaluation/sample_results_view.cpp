#include "evaluation/sample_results_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "evaluation/sample_results_model.h"

namespace lf::ui {

SampleResultsView::SampleResultsView(QWidget* parent)
    : QWidget(parent), model_(new SampleResultsModel(this)), filter_(new SampleFilter(model_, this)),
      class_(new QComboBox), outcome_(new QComboBox), table_(new QTableView), count_(new QLabel),
      export_(new QPushButton(tr("Export CSV…"))) {
    class_->addItem(tr("All classes"), -1);
    outcome_->addItem(tr("Correct and incorrect"), int(SampleFilter::Outcome::Any));
    outcome_->addItem(tr("Correct only"), int(SampleFilter::Outcome::Correct));
    outcome_->addItem(tr("Incorrect only"), int(SampleFilter::Outcome::Incorrect));
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SampleResultsModel::Sample, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    export_->setToolTip(tr("Save the rows shown as CSV: sample, label, predicted, confidence, correct"));
    export_->setEnabled(false);

    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("True class")));
    filters->addWidget(class_, 1);
    filters->addWidget(outcome_, 1);
    filters->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(table_, 1);
    layout->addWidget(count_);

    connect(class_, &QComboBox::currentIndexChanged, this, [this] {
        filter_->setTrueClass(class_->currentData().toInt());
        updateCount();
    });
    connect(outcome_, &QComboBox::currentIndexChanged, this, [this] {
        filter_->setOutcome(SampleFilter::Outcome(outcome_->currentData().toInt()));
        updateCount();
    });
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export samples"), "samples.csv", tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error)) QMessageBox::warning(this, tr("Cannot export"), error);
    });
    updateCount();
}

void SampleResultsView::setResult(const EvaluationResult& result) {
    {
        QSignalBlocker block(class_);
        while (class_->count() > 1) class_->removeItem(1);
        for (int c = 0; c < result.classNames.size(); ++c) class_->addItem(result.classNames[c], c);
        class_->setCurrentIndex(0);
    }
    filter_->setTrueClass(-1);
    model_->setResults(result.samples, result.classNames);
    export_->setEnabled(!result.samples.empty());
    updateCount();
}

bool SampleResultsView::exportCsv(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text) || f.write(samplesCsv(*filter_).toUtf8()) < 0) {
        *error = tr("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void SampleResultsView::updateCount() {
    count_->setText(tr("%1 of %2 samples shown").arg(filter_->rowCount()).arg(model_->rowCount()));
}

}  // namespace lf::ui
