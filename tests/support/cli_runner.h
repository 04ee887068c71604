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

// `env`: the process's environment (default: this one's), e.g. with DNNL_MAX_CPU_ISA set.
inline CliRun cli(const QStringList& args, const QProcessEnvironment& env, int timeout_ms = 120000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("LF_CLI"), args);
    if (!p.waitForFinished(timeout_ms)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

inline CliRun cli(const QStringList& args, int timeout_ms = 120000) {
    return cli(args, QProcessEnvironment::systemEnvironment(), timeout_ms);
}

// A writable copy of the tutorial MLP template as dir/NAME.lfproj (replacing an older one), so
// the runs and weights of the commands under test land beside it.
inline QString mlpProjectCopy(const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name + ".lfproj");
    QFile::remove(path);
    QFile::copy(qEnvironmentVariable("LF_SOURCE_DIR") + "/resources/templates/fashion_mlp.lfproj", path);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return path;
}

// Runs `script` with sh in a private user and mount namespace; `vars` become its environment
// (with LF_CLI). Mounts made there vanish with it.
inline CliRun isolated(const QString& script, const QMap<QString, QString>& vars = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = vars.begin(); it != vars.end(); ++it) env.insert(it.key(), it.value());
    p.setProcessEnvironment(env);
    p.start("unshare", {"-rm", "sh", "-c", script});
    if (!p.waitForFinished(120000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}
