#pragma once
// The environment the MPI suites start `mpirun` with: as root here (CI runs as root), and with
// ranks that yield their core while they wait, since two busy-polling ranks on two cores would
// starve each other and the compilers beside them.
#include <QProcessEnvironment>

inline QProcessEnvironment mpiEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_mpi_yield_when_idle", "1");
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    return env;
}
