// The resource-fault matrix, end to end through layerforge-cli: a full filesystem, a read-only
// project folder, a dataset folder deleted mid-run, a loss that turns NaN mid-run, a memory
// limit and a real out-of-memory. Each ends the run with exit code 1 and a message naming the
// file, folder or setting; the next command on the same store works; and what was committed
// before the fault (checkpoints, metrics, the weights file) is intact and readable.
// Full and read-only volumes are tmpfs mounts in a private user and mount namespace
// (`unshare -rm`), so the suite needs no root and leaves no mount behind.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fault_fixtures.h"
#include "layerforge/store/run_store.h"

using namespace lf;
using nlohmann::json;

namespace {

// On a tmpfs of `size` at VOL (a private namespace): copies the project there, trains it once
// (a finished run, its weights copied to OUT/weights-before), runs the `fault` commands, then
// lists the checkpoints there (OUT/list.txt, OUT/list.rc) and copies the weights file out.
CliRun onVolume(const QString& size, const QString& project, const QString& vol, const QString& out,
                const QString& fault) {
    const QString before = R"(mount -t tmpfs -o size=$SIZE tmpfs "$VOL" || exit 90
                              cp "$SRC" "$VOL/p.lfproj"
                              "$LF_CLI" train "$VOL/p.lfproj" > /dev/null || exit 91
                              cp "$VOL/p.weights.safetensors" "$OUT/weights-before")";
    const QString after = R"("$LF_CLI" checkpoints list "$VOL/p.lfproj" --json > "$OUT/list.txt"
                             echo "$?" > "$OUT/list.rc"
                             cp "$VOL/p.weights.safetensors" "$OUT/"
                             exit 0)";
    return isolated(before + "\n" + fault + "\n" + after, {{"SIZE", size}, {"VOL", vol}, {"OUT", out}, {"SRC", project}});
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The final {"event": "result"} object of a --json train.
json resultOf(const CliRun& r) {
    for (const json& j : r.lines())
        if (j.value("event", "") == "result") return j;
    return json();
}

int countEvents(const CliRun& r, const char* event) {
    int n = 0;
    for (const json& j : r.lines()) n += j.value("event", "") == event;
    return n;
}

}  // namespace

class TestCliFaults : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString images_;

    QString save(const Project& p, const QString& name) {
        const QString path = dir_.filePath(name + ".lfproj");
        save_project(p, path.toStdString());
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        images_ = dir_.filePath("images");
        writeImageFolder(images_);
        const CliRun probe = isolated("true");
        QVERIFY2(probe.code == 0, qPrintable("this suite mounts tmpfs volumes in a private namespace and needs "
                                             "`unshare -rm` (user namespaces): " + probe.err));
    }

    // 1. The run store's volume fills up after a few checkpoints.
    void fullFilesystemKeepsWhatWasCommitted() {
        const QString source = save(uncachedProject(images_, 1), "full");
        const QString vol = dir_.filePath("full-vol"), out = dir_.filePath("full-out");
        QVERIFY(QDir().mkpath(vol) && QDir().mkpath(out));
        // 3 MB: the store, the first run and a few checkpoints of the second fit; the WAL of the
        // second run fills the rest. The store is copied out while the namespace still has it.
        const CliRun r = onVolume("3m", source, vol, out,
                                  R"("$LF_CLI" train "$VOL/p.lfproj" --epochs 100000 --json 2> "$OUT/train.err"
                                     echo "$?" > "$OUT/train.rc"
                                     for f in p.lfruns p.lfruns-wal; do [ -e "$VOL/$f" ] && cp "$VOL/$f" "$OUT/"; done)");
        QVERIFY2(r.code == 0, qPrintable(QString("setup step %1 failed: %2").arg(r.code).arg(r.err)));
        QCOMPARE(fileBytes(out + "/train.rc").trimmed(), QByteArray("1"));
        const QString err = fileBytes(out + "/train.err");
        QVERIFY2(err.contains("the checkpoint at step ") && err.contains(vol + "/p.lfruns") &&
                     err.contains("disk is full"),
                 qPrintable(err));
        const int saved = countEvents(r, "checkpoint");
        QVERIFY2(saved >= 2, qPrintable(r.out));  // a few checkpoints fit before the disk filled
        QCOMPARE(resultOf(r)["status"], "failed");

        // The next command on the full volume still reads the store: run 1's and run 2's checkpoints.
        QCOMPARE(fileBytes(out + "/list.rc").trimmed(), QByteArray("0"));
        const CliRun list{0, fileBytes(out + "/list.txt"), {}};
        QVERIFY2(countEvents(list, "checkpoints") == 1, qPrintable(list.out));
        RunStore store((out + "/p.lfruns").toStdString(), false);
        QCOMPARE(store.integrity_check(), std::string("ok"));
        QCOMPARE(store.run(1).status, lf::RunStatus::Finished);
        // Whether its final status still fit in the WAL's free pages depends on the page layout; the
        // message says which, and the store agrees with it: never running once its process has ended.
        const bool unrecorded = err.contains("its status could not be recorded, so the run will be listed as interrupted");
        QCOMPARE(store.run(2).status, unrecorded ? lf::RunStatus::Interrupted : lf::RunStatus::Failed);
        QVERIFY(!store.metrics(1, "epoch").empty());
        QCOMPARE(int(store.checkpoints(2).size()), std::min(saved, 5));  // --keep 5 by default
        QCOMPARE(list.lines()[0]["checkpoints"].size(), store.checkpoints().size());
        verifyRestorable(store, uncachedProject(images_, 1), 1);
        verifyRestorable(store, uncachedProject(images_, 1), 2);
        QVERIFY(!store.metrics(2, "epoch").empty());
        // The weights file of the finished run was not touched by the failed one.
        QCOMPARE(fileBytes(out + "/p.weights.safetensors"), fileBytes(out + "/weights-before"));
    }

    // 2. The project's folder is read-only: the run stops before anything is read or trained.
    void readOnlyProjectFolderFailsUpFront() {
        const QString source = save(uncachedProject(images_, 1), "ro");
        const QString vol = dir_.filePath("ro-vol"), out = dir_.filePath("ro-out");
        QVERIFY(QDir().mkpath(vol) && QDir().mkpath(out));
        const CliRun r = onVolume("4m", source, vol, out,
                                  R"(mount -o remount,bind,ro "$VOL" || exit 92
                                     "$LF_CLI" train "$VOL/p.lfproj" --epochs 2 --json 2> "$OUT/train.err"
                                     echo "$?" > "$OUT/train.rc")");
        QVERIFY2(r.code == 0, qPrintable(QString("setup step %1 failed: %2").arg(r.code).arg(r.err)));
        QCOMPARE(fileBytes(out + "/train.rc").trimmed(), QByteArray("1"));
        const QString err = fileBytes(out + "/train.err");
        QVERIFY2(err.contains("the folder " + vol + " is read-only"), qPrintable(err));
        QCOMPARE(countEvents(r, "run"), 0);  // up front: no run recorded, no data bound, no epoch
        QCOMPARE(countEvents(r, "data"), 0);
        QVERIFY(!r.out.contains("epoch"));
        // The store there still reads: the first run's checkpoint is listed.
        QCOMPARE(fileBytes(out + "/list.rc").trimmed(), QByteArray("0"));
        const CliRun list{0, fileBytes(out + "/list.txt"), {}};
        QVERIFY2(list.out.contains("ckpt-15"), qPrintable(list.out));
        QCOMPARE(fileBytes(out + "/p.weights.safetensors"), fileBytes(out + "/weights-before"));
    }

    // 3. The dataset folder disappears while the run goes on (files decoded every epoch).
    void datasetDeletedMidRunFailsNamingTheFile() {
        const QString data = dir_.filePath("unplugged");
        writeImageFolder(data);
        const QString path = save(uncachedProject(data, 100000), "unplugged");
        QProcess p;
        p.start(qEnvironmentVariable("LF_CLI"), {"train", path, "--json"});
        QString seen;
        while (!seen.contains("\"checkpoint\"") && p.waitForReadyRead(20000)) seen += p.readAllStandardOutput();
        QVERIFY2(seen.contains("\"checkpoint\""), qPrintable(seen));
        QVERIFY(QDir(data).removeRecursively());  // unplugged after the first epoch
        QVERIFY2(p.waitForFinished(30000), "the run did not end after its files went away");
        const CliRun r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, seen + p.readAllStandardOutput(),
                       p.readAllStandardError()};
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the dataset file " + data + "/") && r.err.contains("is missing"), qPrintable(r.err));
        QCOMPARE(resultOf(r)["status"], "failed");
        const CliRun runs = cli({"runs", "list", path, "--json"});  // the next command works
        QCOMPARE(runs.code, 0);
        RunStore store(RunStore::path_for_project(path.toStdString()), false);
        QCOMPARE(store.integrity_check(), std::string("ok"));
        QCOMPARE(store.run(1).status, lf::RunStatus::Failed);
        QCOMPARE(int(store.checkpoints(1).size()), std::min(countEvents(r, "checkpoint"), 5));
        verifyRestorable(store, uncachedProject(data, 1), 1);
    }

    // 4. A learning rate that grows a million-billion-fold per epoch overflows after epoch 2.
    void nanMidRunKeepsTheLastGoodCheckpoint() {
        Project p = uncachedProject(images_, 6);
        p.training.schedule = {"exponential_decay",
                               {{"decay_steps", std::int64_t(15)}, {"decay_rate", 1e20}, {"staircase", true}}};
        const QString path = save(p, "nan");
        const CliRun r = cli({"train", path, "--json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the loss became") && r.err.contains(", step "), qPrintable(r.err));
        const int kept = countEvents(r, "checkpoint");
        QVERIFY2(kept >= 1, qPrintable(r.out));  // not at step 1: at least one epoch finished
        RunStore store(RunStore::path_for_project(path.toStdString()), false);
        const CheckpointInfo last = store.checkpoints(1).back();
        QVERIFY2(r.err.contains("last checkpoint, " + QString::fromStdString(last.name())), qPrintable(r.err));
        QVERIFY2(r.err.contains(QString("at epoch %1,").arg(last.epoch + 1)), qPrintable(r.err));
        verifyRestorable(store, p, 1);
        const QString weights = dir_.filePath("nan-restored.safetensors");
        const CliRun restored = cli({"restore", path, QString::fromStdString(last.name()), "--weights-out", weights});
        QVERIFY2(restored.code == 0, qPrintable(restored.err));
        QVERIFY(QFileInfo(weights).size() > 0);
    }

    // 5. The configured limit refuses the training before anything is allocated or recorded
    // (exit 2: a setting of the project's), naming both sizes.
    void memoryLimitRefusesThePlanBeforeAllocating() {
        Project p = hugePlanProject(images_);
        const QString path = save(p, "limit");
        const CliRun r = cli({"train", path, "--memory-limit", "500", "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("training needs about") && r.err.contains("at batch size 64") &&
                     r.err.contains("the memory limit is 500 MB"),
                 qPrintable(r.err));
        QVERIFY(!r.out.contains("epoch"));
        p.training.memory_limit_mb = 500;  // the same from the project's settings
        const QString inFile = save(p, "limit-file");
        const CliRun r2 = cli({"train", inFile});
        QCOMPARE(r2.code, 2);
        QVERIFY2(r2.err.contains("the memory limit is 500 MB (training.memory_limit_mb)"), qPrintable(r2.err));
        for (const QString& project : {path, inFile})  // refused before a run was recorded
            QVERIFY(!QFileInfo::exists(QString::fromStdString(RunStore::path_for_project(project.toStdString()))));
    }

    // 6. Without a limit the allocation itself fails (an address-space limit on the child):
    // an out-of-memory message, not a crash.
    void outOfMemoryBuildingThePlanIsAMessage() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("RLIMIT_AS cannot combine with a sanitizer's shadow memory reservation (terabytes of address space)");
#endif
        const QString path = save(hugePlanProject(images_), "oom");
        QProcess p;
        p.start("sh", {"-c", R"(ulimit -v 2500000 && exec "$LF_CLI" train "$1")", "sh", path});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QString err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("out of memory while building the training plan at batch size 60"), qPrintable(err));
        const CliRun runs = cli({"runs", "list", path, "--json"});  // the store is fine
        QCOMPARE(runs.code, 0);
        QVERIFY(runs.out.contains("failed"));
    }
};

QTEST_MAIN(TestCliFaults)
#include "test_cli_faults.moc"
#include "run_status_text.h"
