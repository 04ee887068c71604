#include "checkpoints/settings_diff_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "layerforge/store/run_diff.h"

namespace lf::ui {

SettingsDiffView::SettingsDiffView(QWidget* parent)
    : QWidget(parent), a_(new QComboBox), b_(new QComboBox), summary_(new QLabel), table_(new QTreeWidget) {
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Run")));
    pick->addWidget(a_, 1);
    pick->addWidget(new QLabel(tr("against")));
    pick->addWidget(b_, 1);
    table_->setHeaderLabels({tr("Setting"), tr("First run"), tr("Second run")});
    table_->setRootIsDecorated(false);
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    for (QComboBox* box : {a_, b_}) connect(box, &QComboBox::currentIndexChanged, this, [this] { update(); });
}

const RunInfo* SettingsDiffView::run(qint64 id) const {
    for (const RunInfo& r : runs_)
        if (r.id == id) return &r;
    return nullptr;
}

void SettingsDiffView::setRuns(std::vector<RunInfo> runs) {
    const QVariant a = a_->currentData(), b = b_->currentData();
    runs_ = std::move(runs);
    for (QComboBox* box : {a_, b_}) {
        const QSignalBlocker block(box);
        box->clear();
        for (const RunInfo& r : runs_)
            box->addItem(tr("#%1 %2 (%3)").arg(r.id).arg(QString::fromStdString(r.name), QString(to_string(r.status))),
                         qint64(r.id));
    }
    a_->setCurrentIndex(qMax(0, a_->findData(a)));
    b_->setCurrentIndex(b.isValid() ? qMax(0, b_->findData(b)) : qMin(1, b_->count() - 1));
    update();
}

void SettingsDiffView::compareRuns(qint64 a, qint64 b) {
    const QSignalBlocker block(a_);
    a_->setCurrentIndex(a_->findData(a));
    b_->setCurrentIndex(b_->findData(b));  // updates
    update();
}

void SettingsDiffView::update() {
    table_->clear();
    const RunInfo* a = run(a_->currentData().toLongLong());
    const RunInfo* b = run(b_->currentData().toLongLong());
    if (!a || !b) {
        summary_->setText(tr("Train at least one run to see its settings."));
        return;
    }
    const std::vector<SettingDifference> diff = settings_diff(*a, *b);
    for (const SettingDifference& d : diff)
        new QTreeWidgetItem(table_, {QString::fromStdString(d.key), d.a.empty() ? "-" : QString::fromStdString(d.a),
                                     d.b.empty() ? "-" : QString::fromStdString(d.b)});
    if (a->dataset_fingerprint != b->dataset_fingerprint)
        new QTreeWidgetItem(table_, {tr("dataset"), QString::fromStdString(a->dataset_fingerprint),
                                     QString::fromStdString(b->dataset_fingerprint)});
    summary_->setText(a == b ? tr("Pick two different runs.")
                             : tr("%n setting(s) differ between run %1 and run %2.", nullptr, table_->topLevelItemCount())
                                   .arg(a->id)
                                   .arg(b->id));
}

}  // namespace lf::ui
