#pragma once
// The run's progress from its events: a bar over all steps, "epoch 2/5  step 40/120  ETA 0:31
// 850 img/s", and a "data-bound" hint when the trainer spends over 10% of its time waiting
// for images. A run of several processes adds each one's rate: "2 processes: 5,012 + 4,987 img/s".
#include <QList>
#include <QWidget>

#include "layerforge/train/trainer.h"

class QLabel;
class QProgressBar;

namespace lf::ui {

class TrainingProgress : public QWidget {
    Q_OBJECT
public:
    explicit TrainingProgress(QWidget* parent = nullptr);

    QProgressBar* bar() const { return bar_; }
    QString statusText() const;
    bool dataBound() const;
    QString ranksText() const;  // empty unless a run of several processes reported its rates

public Q_SLOTS:
    void showTrainEvent(const lf::TrainEvent& e);
    void showEnd(lf::RunStatus status, const QString& message);
    void showRankThroughput(const QList<double>& imagesPerSecond);
    void clear();

private:
    QProgressBar* bar_;
    QLabel* status_;
    QLabel* dataBound_;
    QLabel* ranks_;
};

}  // namespace lf::ui
