#pragma once
// QCOMPARE on lf::RunStatus prints the status's stored text ("finished") when it fails.
#include <QtGlobal>

#include "layerforge/core/run_status.h"

namespace lf {

inline char* toString(RunStatus s) { return qstrdup(to_string(s)); }

}  // namespace lf
