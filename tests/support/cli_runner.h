#pragma once
// Runs layerforge-cli (the LF_CLI environment variable) and captures its exit code and output.
#include <QtTest>

#include <vector>

#include <nlohmann/json.hpp>

struct CliRun {
    int code = -1;  // -1: crashed, killed or timed out
    QString out, err;
    // Every complete stdout line parsed as JSON (a killed process may leave half a line).
    std::vector<nlohmann::json> lines() const {
        std::vector<nlohmann::json> v;
        for (const QString& l : out.split('\n', Qt::SkipEmptyParts)) {
            nlohmann::json j = nlohmann::json::parse(l.toStdString(), nullptr, false);
            if (!j.is_discarded()) v.push_back(j);
        }
        return v;
    }
};

inline CliRun cli(const QStringList& args, int timeout_ms = 120000) {
    QProcess p;
    p.start(qEnvironmentVariable("LF_CLI"), args);
    if (!p.waitForFinished(timeout_ms)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}
