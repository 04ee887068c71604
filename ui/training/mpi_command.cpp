#include "training/mpi_command.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <unistd.h>

namespace lf::ui {

namespace {

// A progress object every step: the charts get every step, as from an in-process run. The
// parser keeps up easily (a line is ~400 bytes; a tiny CNN here logs ~200 steps/s), and the
// only cost on the ranks is a gather of one number per rank per step.
constexpr int kLogEvery = 1;

// The run options that layerforge-cli train takes, as the in-process run applies them.
QStringList trainOptions(const TrainingOptions& o, const QString& resume) {
    QStringList a;
    a << "--checkpoint-every" << QString::number(o.checkpointEverySteps) << "--checkpoint-epochs"
      << QString::number(o.checkpointEveryEpochs) << "--keep" << QString::number(o.keep);
    if (!o.bestMetric.isEmpty()) a << "--best-metric" << o.bestMetric;
    a << "--best-mode" << o.bestMode << "--device" << o.device;
    if (o.limitTrain > 0) a << "--limit-train" << QString::number(o.limitTrain);
    if (!o.tensorboardDir.isEmpty()) a << "--tensorboard" << o.tensorboardDir;
    if (!resume.isEmpty()) a << "--resume" << resume;
    return a;
}

}  // namespace

QString findMpirun(const QString& path) {
    for (const QString& dir : path.split(QDir::listSeparator(), Qt::SkipEmptyParts)) {
        const QFileInfo f(QDir(dir).filePath("mpirun"));
        if (f.isFile() && f.isExecutable()) return f.absoluteFilePath();
    }
    return {};
}

QString findMpirun() { return findMpirun(qEnvironmentVariable("PATH")); }

QString mpirunMissingReason() {
    return QObject::tr("Open MPI's mpirun is not installed: apt install openmpi-bin");
}

MpiHost thisHost() { return {findMpirun(), QThread::idealThreadCount(), ::geteuid() == 0}; }

ProcessCommand mpiTrainCommand(const MpiHost& host, const QString& cli, const QString& project,
                               const TrainingOptions& o, const QString& resume) {
    QStringList a{"-np", QString::number(o.processes)};
    if (!o.hostfile.isEmpty()) a << "--hostfile" << o.hostfile;
    // Without a hostfile all ranks run here; Open MPI refuses more of them than cores unless told.
    else if (o.processes > host.cores) a << "--oversubscribe";
    if (host.root) a << "--allow-run-as-root";
    a << cli << "train" << project << "--distributed" << "--json" << "--log-every" << QString::number(kLogEvery);
    a << trainOptions(o, resume);
    return {host.mpirun, a};
}

}  // namespace lf::ui
