#pragma once
// Small helpers shared by the engine tests.
#include <QFile>
#include <QtTest>

#include <cmath>
#include <string>

#include "layerforge/core/error.h"

// Fails the test unless |actual - expected| <= tol, printing both values.
#define LF_COMPARE_NEAR(actual, expected, tol)                                                          \
    do {                                                                                                \
        const double lf_a = (actual), lf_e = (expected);                                                \
        QVERIFY2(std::abs(lf_a - lf_e) <= (tol),                                                        \
                 qPrintable(QString("%1 = %2, expected %3").arg(#actual).arg(lf_a, 0, 'g', 12).arg(lf_e, 0, 'g', 12))); \
    } while (0)

// Fails unless stmt throws lf::Error of kind `error_kind` whose message contains every word given.
#define LF_EXPECT_ERROR_OF_KIND(error_kind, stmt, ...)                                                  \
    do {                                                                                                \
        bool lf_thrown = false;                                                                         \
        try {                                                                                           \
            stmt;                                                                                       \
        } catch (const lf::Error& e) {                                                                  \
            lf_thrown = true;                                                                           \
            QCOMPARE(e.kind(), error_kind);                                                             \
            for (const char* word : {__VA_ARGS__})                                                      \
                QVERIFY2(std::string(e.what()).find(word) != std::string::npos,                         \
                         qPrintable(QString("'%1' not in: %2").arg(word, e.what())));                   \
        }                                                                                               \
        QVERIFY2(lf_thrown, "expected lf::Error (" #error_kind ") from " #stmt);                        \
    } while (0)
#define LF_EXPECT_INPUT_ERROR(stmt, ...) LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, stmt, __VA_ARGS__)
#define LF_EXPECT_RUNTIME_ERROR(stmt, ...) LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Runtime, stmt, __VA_ARGS__)

// Writes `bytes` to `path` (a fixture written by the test); false when it cannot.
inline bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
