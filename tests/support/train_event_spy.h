#pragma once
// Counting what a QSignalSpy on TrainingController::trainEvent caught, for the Train page tests.
#include <QSignalSpy>

#include "training/training_types.h"

// How many of the spied events are of `kind`.
inline int countKind(const QSignalSpy& spy, lf::EventKind kind) {
    int n = 0;
    for (const auto& args : spy) n += args.at(0).value<lf::TrainEvent>().kind == kind;
    return n;
}
