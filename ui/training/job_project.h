#pragma once
// What a multi-process run needs from the studio's session: the ranks are separate programs, so
// they read the project from a file. A saved project without unsaved edits is read where it
// is; an untitled one is written beside its run store (untitled.lfproj next to untitled.lfruns)
// so the job records its run where an in-process run would. Edits not yet saved to a named
// project would be lost to the job: it asks for a save first.
#include <QString>

#include "training/training_types.h"

namespace lf::ui {

class StudioSession;

// The project's file, or untitled.lfproj beside the untitled store (the decode cache and the
// weights go beside it).
QString runProjectPath(const StudioSession& s);

// Why a run with these options cannot start as a job now (no mpirun, a GPU device, a missing
// hostfile, unsaved edits); empty when it can, or when it runs in the studio.
QString jobProblem(const StudioSession& s, const TrainingOptions& o, const QString& mpirun);

// The file the ranks train; empty and `error` set when the untitled snapshot cannot be written.
QString writeJobProject(const StudioSession& s, QString* error);

// layerforge-cli beside the studio's executable (an install puts both in one folder).
QString cliBesideStudio();

}  // namespace lf::ui
