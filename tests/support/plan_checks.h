#pragma once
// Checks of a plan's rewrites shared by the engine tests: the kernel compiled for a node, and a
// rewritten plan's values against the plain plan's.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "device_plan.h"

inline std::string kernel_of(const lf::test::DevicePlan& plan, const std::string& node) {
    for (const auto& [id, impl] : plan.kernels())
        if (id == node) return impl;
    return "";  // no op: a view, or a layer folded into the one before it
}

// Fails unless every value is within tol of the plain plan's, relative to the value's size
// (tol 0: bit for bit).
inline void compare_to_plain(const std::vector<float>& rewritten, const std::vector<float>& plain, const char* what,
                             float tol) {
    QCOMPARE(rewritten.size(), plain.size());
    for (std::size_t i = 0; i < rewritten.size(); ++i)
        if (std::abs(rewritten[i] - plain[i]) > tol * std::max(1.f, std::abs(plain[i])))
            QFAIL(qPrintable(QString("%1[%2]: %3 rewritten vs %4 plain").arg(what).arg(i).arg(rewritten[i]).arg(plain[i])));
}
