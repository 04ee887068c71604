#pragma once
// Reads the output of `layerforge-cli train --json` (one JSON object per line) into what the
// Train page shows: engine TrainEvents for the dashboard, and the run's record (its id, its
// checkpoints, the class list, the result). A process's output arrives in arbitrary chunks: a
// line split between reads waits for its end. Lines that are no such object (a plugin's print,
// a line cut off when the process was killed) are skipped.
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "layerforge/train/trainer.h"

namespace lf::ui {

struct CliEvent {
    enum class Type { Train, Run, Checkpoint, Data, Result, Error };
    Type type = Type::Train;
    TrainEvent train;                  // Train
    QList<double> rankImagesPerSecond;  // Train steps of a distributed run: each rank's img/s, by rank
    qint64 id = 0;                     // Run (also a resume): the run; Checkpoint: its id; Result: the run
    RunStatus status = RunStatus::Failed;  // Result
    QString message;                   // Result, Error
    QString path;                      // Run: the store; Result: the weights file
    QStringList classes;               // Data: the class list the scan found
};

// One line without its newline; nullopt when it is none of the objects above.
std::optional<CliEvent> parseCliLine(QByteArrayView line);

class CliEventParser {
public:
    std::vector<CliEvent> feed(QByteArrayView chunk);  // the events of the lines this chunk completes
    std::vector<CliEvent> finish();                    // a last line the output did not end
private:
    QByteArray partial_;  // the start of a line whose newline has not arrived
};

}  // namespace lf::ui
