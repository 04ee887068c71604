#pragma once
// Values that travel between the training thread and the GUI thread as queued signal
// arguments, and the panel's run options that are not part of the project document.
#include <QByteArray>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "layerforge/train/trainer.h"

namespace lf::ui {

// Options of one run that the project file does not hold: checkpointing, device, a quick run's
// image limit, event rate.
struct TrainingOptions {
    qint64 checkpointEverySteps = 0;   // 0: not by steps
    qint64 checkpointEveryEpochs = 1;  // 0: not by epochs; the end of a run always checkpoints
    qint64 keep = 5;                   // newest checkpoints kept, besides the best and the pinned
    QString bestMetric;                // empty: val_loss, or loss without validation data
    QString bestMode = QStringLiteral("auto");  // min | max | auto
    QString device = QStringLiteral("cpu");
    qint64 limitTrain = 0;        // a quick run: only the first N training images, as --limit-train (0: all)
    QString tensorboardDir;       // TensorBoard event files written live there, as --tensorboard DIR (empty: off)
    qint64 logEvery = 5;          // the trainer measures img/s and ETA over N steps ...
    int eventIntervalMs = 200;    // ... the progress gets one step event per interval; the charts every step
    int processes = 1;            // > 1: a data-parallel job of that many layerforge-cli processes under mpirun
    QString hostfile;             // with processes > 1: mpirun --hostfile (empty: all on this machine)
};

// How a run ended, as the training thread reports it.
struct TrainingOutcome {
    RunStatus status = RunStatus::Failed;  // Finished, EarlyStopped, Stopped or Failed
    QString message;
    qint64 run = 0;   // 0 when no run was recorded
    QByteArray weights;  // safetensors; empty unless the run ended with weights
    QStringList classNames;
};

}  // namespace lf::ui

Q_DECLARE_METATYPE(lf::RunStatus)
Q_DECLARE_METATYPE(lf::TrainEvent)
Q_DECLARE_METATYPE(lf::ui::TrainingOutcome)
