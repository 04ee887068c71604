#include "training/job_project.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include "document/project_document.h"
#include "session/studio_session.h"
#include "training/mpi_command.h"

namespace lf::ui {

QString runProjectPath(const StudioSession& s) {
    if (!s.projectPath().isEmpty()) return s.projectPath();
    return QFileInfo(s.storePath()).dir().filePath("untitled.lfproj");
}

QString jobProblem(const StudioSession& s, const TrainingOptions& o, const QString& mpirun) {
    if (o.processes <= 1) return {};
    if (mpirun.isEmpty()) return mpirunMissingReason();
    if (!o.hostfile.isEmpty() && !QFileInfo(o.hostfile).isFile())
        return QObject::tr("the hostfile %1 does not exist: choose another or clear it").arg(o.hostfile);
    if (o.device != QLatin1String("cpu"))
        return QObject::tr("a run of several processes trains on the CPU in this version: choose the CPU device");
    const ProjectDocument* doc = s.document();
    if (!doc->fileName().isEmpty() && (doc->isModified() || !QFileInfo::exists(doc->fileName())))
        return QObject::tr("save the project first: the %1 processes read it from its file").arg(o.processes);
    return {};
}

QString writeJobProject(const StudioSession& s, QString* error) {
    if (!s.document()->fileName().isEmpty()) return s.document()->fileName();
    const QString path = runProjectPath(s);
    QDir().mkpath(QFileInfo(path).path());
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(s.document()->serialized().toUtf8()) >= 0 && f.commit()) return path;
    *error = QObject::tr("cannot write %1 for the training processes: %2").arg(path, f.errorString());
    return {};
}

QString cliBesideStudio() { return QDir(QCoreApplication::applicationDirPath()).filePath("layerforge-cli"); }

}  // namespace lf::ui
