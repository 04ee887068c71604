#pragma once
// qcustomplot.h with the Qt keywords it is written with (signals, slots, emit, foreach), which
// the project turns off with QT_NO_KEYWORDS. Include this, never <qcustomplot.h> directly, and
// only from .cpp files: the header costs ~9 s per translation unit.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
