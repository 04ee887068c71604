#include "training/training_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QVBoxLayout>
#include <algorithm>

#include "layerforge/train/event_text.h"

namespace lf::ui {

TrainingProgress::TrainingProgress(QWidget* parent)
    : QWidget(parent), bar_(new QProgressBar), status_(new QLabel), dataBound_(new QLabel), ranks_(new QLabel) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar_);
    auto* row = new QHBoxLayout;
    row->addWidget(status_, 1);
    row->addWidget(dataBound_);
    layout->addLayout(row);
    ranks_->setObjectName("rankThroughput");
    ranks_->setToolTip(tr("Images per second of each training process, by rank (rank 0 first)"));
    layout->addWidget(ranks_);
    dataBound_->setStyleSheet("color: #a15c00; font-weight: bold");
    dataBound_->setToolTip(tr("The trainer waits for images more than 10% of the time: add decoding workers, "
                              "cache the decoded images or use smaller images."));
    clear();
}

QString TrainingProgress::statusText() const { return status_->text(); }
bool TrainingProgress::dataBound() const { return !dataBound_->isHidden(); }
QString TrainingProgress::ranksText() const { return ranks_->isHidden() ? QString() : ranks_->text(); }

void TrainingProgress::clear() {
    bar_->setRange(0, 1);
    bar_->setValue(0);
    bar_->setFormat(tr("not running"));
    status_->clear();
    dataBound_->hide();
    ranks_->clear();
    ranks_->hide();
}

void TrainingProgress::showRankThroughput(const QList<double>& imagesPerSecond) {
    QStringList rates;
    for (double r : imagesPerSecond) rates << QLocale().toString(r, 'f', 0);
    ranks_->setText(tr("%1 processes: %2 img/s").arg(imagesPerSecond.size()).arg(rates.join(QStringLiteral(" + "))));
    ranks_->setVisible(!imagesPerSecond.isEmpty());
}

void TrainingProgress::showTrainEvent(const lf::TrainEvent& e) {
    if (e.total_steps > 0) {
        bar_->setRange(0, int(std::min<std::int64_t>(e.total_steps, INT32_MAX)));
        bar_->setValue(int(std::min(e.step, e.total_steps)));
        bar_->setFormat(tr("%p%  (step %1 of %2)").arg(e.step).arg(e.total_steps));
    }
    const std::int64_t inEpoch = e.steps_per_epoch ? e.step - (e.epoch - 1) * e.steps_per_epoch : 0;
    switch (e.kind) {
    case EventKind::Step:
        status_->setText(tr("epoch %1/%2  step %3/%4  ETA %5  %6 img/s")
                             .arg(e.epoch).arg(e.epochs).arg(inEpoch).arg(e.steps_per_epoch)
                             .arg(QString::fromStdString(duration_text(e.eta_seconds)))
                             .arg(e.images_per_second, 0, 'f', 0));
        dataBound_->setText(tr("data-bound: %1% waiting for images").arg(100 * e.data_wait_fraction, 0, 'f', 0));
        dataBound_->setVisible(e.data_wait_fraction > 0.1);
        break;
    case EventKind::RunStarted:
        status_->setText(tr("%1 epochs of %2 steps").arg(e.epochs).arg(e.steps_per_epoch));
        break;
    case EventKind::EpochEnd:
        status_->setText(tr("epoch %1/%2 done  %3").arg(e.epoch).arg(e.epochs).arg(QString::fromStdString(metrics_text(e.metrics))));
        break;
    case EventKind::Paused:
        status_->setText(tr("paused at epoch %1, step %2").arg(e.epoch).arg(inEpoch));
        break;
    default:
        break;
    }
}

void TrainingProgress::showEnd(RunStatus status, const QString& message) {
    bar_->setFormat(status == RunStatus::Failed    ? tr("failed")
                    : status == RunStatus::Stopped ? tr("stopped at %p%")
                                                   : tr("%p%  done"));
    status_->setText(message.isEmpty() ? QString(to_string(status)) : message);
    dataBound_->hide();
}

}  // namespace lf::ui
