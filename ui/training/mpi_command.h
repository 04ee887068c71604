#pragma once
// The command line of a multi-process run: Open MPI's mpirun starting N layerforge-cli ranks
// with `train PROJECT --distributed --json`, carrying the run options the CLI has, and what the
// launch needs to know about this machine (where mpirun is, its cores, whether we are root).
#include <QString>
#include <QStringList>

#include "training/training_types.h"

namespace lf::ui {

// The first executable mpirun in `path` (a PATH value); empty when Open MPI is not installed.
QString findMpirun(const QString& path);
QString findMpirun();  // in this process's PATH
QString mpirunMissingReason();

struct MpiHost {
    QString mpirun;  // absolute path
    int cores = 1;   // here: more ranks than cores need --oversubscribe
    bool root = false;  // mpirun refuses root without --allow-run-as-root
};
MpiHost thisHost();  // mpirun from PATH (empty when missing)

struct ProcessCommand {
    QString program;
    QStringList arguments;
};

// mpirun -np N [--hostfile F] [--oversubscribe] [--allow-run-as-root] CLI train PROJECT
// --distributed --json --log-every 1 [options]; `resume`: a checkpoint id, or empty for a new run.
ProcessCommand mpiTrainCommand(const MpiHost& host, const QString& cli, const QString& project,
                               const TrainingOptions& options, const QString& resume);

}  // namespace lf::ui
