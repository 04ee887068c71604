// The CLI as a hostile user runs it (issue 20): sizes that overflow, huge but valid models,
// files that are not regular files, inputs that used to leak internal errors, full disks during
// the last writes, exports killed half-way, two trainings of one project, and oversized text.
// Each ends with exit 2 for bad input or 1 for the environment, and a message naming the file,
// node or field; never an internal exception's text.
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <random>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "image_folder_fixture.h"
#include "layerforge/store/run_store.h"

using namespace lf;

namespace {

// Runs the CLI under an address-space limit: a command that allocated weights or a plan for
// these sizes would fail with "out of memory" instead of answering.
// Sanitizer builds reserve terabytes of shadow address space, so there the limit is left out and
// only the answers are checked.
bool sanitized();

CliRun cliLimited(const QStringList& args, int limit_mb) {
    QProcess p;
    const QString limit = sanitized() ? QString() : QString("ulimit -v %1 && ").arg(limit_mb * 1024);
    QStringList sh{"-c", limit + "exec \"$LF_CLI\" \"$@\"", "sh"};
    p.start("sh", sh + args);
    if (!p.waitForFinished(120000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#else
    return false;
#endif
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// No std:: exception text, no SQL: what the probe found leaking.
void verifyNoInternalText(const CliRun& r) {
    for (const char* leak : {"map::at", "stoll", "stoi", "basic_string", "CREATE TABLE", "vector::", "bad_alloc",
                             "filesystem error", "internal error"})
        QVERIFY2(!r.err.contains(leak), qPrintable(r.err));
}

}  // namespace

class TestCliHardening : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString images_;

    QString save(const Project& p, const QString& name) {
        const QString path = dir_.filePath(name + ".lfproj");
        save_project(p, path.toStdString());
        return path;
    }

    // A raw project file (what save_project would refuse to write).
    QString saveRaw(const nlohmann::json& j, const QString& name) {
        const QString path = dir_.filePath(name + ".lfproj");
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(QByteArray::fromStdString(j.dump()));
        return path;
    }

    nlohmann::json tinyJson() {
        const QString path = save(tinyImageProject(images_, 1), "json-source");
        return nlohmann::json::parse(fileBytes(path).toStdString());
    }

    Project withInput(IntList shape) {
        Project p = tinyImageProject(images_, 1);
        p.graph.nodes[0].params["shape"] = std::move(shape);
        return p;
    }

    QString trainedProject(const QString& name) {
        const QString path = save(tinyImageProject(images_, 1), name);
        const CliRun r = cli({"train", path});
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        return r.code == 0 ? path : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        images_ = dir_.filePath("images");
        writeImageFolder(images_);
    }

    // 1. Sizes that used to wrap are refused on the node, by every command that reads the model.
    void overflowingShapesAreRefusedOnTheNode() {
        const std::int64_t m = 2147483647;
        const std::vector<IntList> shapes = {{m, m, m}, {std::int64_t(1) << 32, std::int64_t(1) << 32, 1},
                                             {(std::int64_t(1) << 62) + 28, 28, 1}};
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            const QString path = save(withInput(shapes[i]), QString("wrap%1").arg(i));
            const CliRun info = cli({"info", path});
            QCOMPARE(info.code, 2);
            QVERIFY2(info.out.contains("error: node 'input': shape too large"), qPrintable(info.out));
            QVERIFY2(!info.out.contains("(?, "), qPrintable(info.out));  // no layer is shaped: nothing wrapped
            for (const char* format : {"onnx", "safetensors", "pytorch", "keras"}) {
                const CliRun ex = cli({"export", path, "--format", format, "--out", dir_.filePath(QString("wrap-out%1").arg(i))});
                QCOMPARE(ex.code, 2);
                QVERIFY2(ex.err.contains("shape too large"), qPrintable(ex.err));
            }
            const CliRun train = cli({"train", path});
            QCOMPARE(train.code, 2);
            QVERIFY2(train.err.contains("shape too large"), qPrintable(train.err));
            verifyNoInternalText(info);
        }
    }

    // 2. Huge but valid models: info reports their sizes without allocating them (an address
    // space of 2 GB is plenty), and train refuses before allocating, naming both numbers.
    void hugeValidModelsAreAnalysedNotAllocated() {
        Project dense = withInput({28, 28, 1});
        dense.graph.nodes[2].params["units"] = std::int64_t(16) << 20;  // 16 M units: 53 GB of weights
        Project pixels = withInput({100000, 100000, 1});                // 10^10 inputs: 120 GB of weights
        Project batch = tinyImageProject(images_, 1);
        batch.training.batch_size = 2147483647;
        Project conv = tinyImageProject(images_, 1);
        conv.graph.nodes[0].params["shape"] = IntList{512, 512, 1};
        conv.graph.nodes.insert(conv.graph.nodes.begin() + 1,
                                {"conv", "Conv2D", "conv", {{"filters", std::int64_t(65536)}, {"kernel_size", IntList{3, 3}}}, 0, 0});
        conv.graph.nodes[2].type = "GlobalAveragePooling2D";  // instead of Flatten
        conv.graph.edges[0] = Edge{PortRef{"input", 0}, PortRef{"conv", 0}};
        conv.graph.edges.insert(conv.graph.edges.begin() + 1, Edge{PortRef{"conv", 0}, PortRef{"flatten", 0}});
        int i = 0;
        for (const Project* p : {&dense, &pixels, &batch, &conv}) {
            const QString path = save(*p, QString("huge%1").arg(i++));
            const CliRun info = cliLimited({"info", path, "--json"}, 2048);
            QVERIFY2(info.code == 0, qPrintable(path + ": " + info.err));
            const nlohmann::json result = info.lines().back();
            QVERIFY2(result["valid"] == true, qPrintable(info.out));
            // Beyond this machine's memory (the batch of 2^31 - 1 is beyond any machine's).
            const nlohmann::json& memory = result["memory"];
            if (memory["fits"] == true) {
                QVERIFY(p != &batch);
                continue;
            }
            QVERIFY(memory["total"].get<std::uint64_t>() > memory["machine"].get<std::uint64_t>());
            const CliRun text = cliLimited({"info", path}, 2048);
            QVERIFY2(text.out.contains("at least") && text.out.contains("training would be refused"), qPrintable(text.out));
            const CliRun train = cliLimited({"train", path}, 2048);
            QCOMPARE(train.code, 2);
            QVERIFY2(train.err.contains("training needs at least") && train.err.contains("MB in all"), qPrintable(train.err));
            QVERIFY2(!QFileInfo::exists(dir_.filePath(QString("huge%1.lfruns").arg(i - 1))), "no run was recorded");
            verifyNoInternalText(train);
        }
    }

    // 3. One open policy for every file read: regular files only, named with what they are.
    void nonRegularFilesAreRefusedNamingWhatTheyAre() {
        const QString fifo = dir_.filePath("fifo.lfproj");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString zero = dir_.filePath("zero.lfproj");
        QVERIFY(QFile::link("/dev/zero", zero));
        for (const char* cmd : {"info", "train"}) {
            const CliRun f = cli({cmd, fifo}, 20000);
            QCOMPARE(f.code, 2);
            QVERIFY2(f.err.contains(fifo + ": is a named pipe (FIFO), not a project file"), qPrintable(f.err));
            const CliRun z = cli({cmd, zero}, 20000);
            QCOMPARE(z.code, 2);
            QVERIFY2(z.err.contains(zero + ": is a character device, not a project file"), qPrintable(z.err));
        }
        const QString empty = dir_.filePath("empty.lfproj");
        QFile(empty).open(QIODevice::WriteOnly);
        const CliRun e = cli({"info", empty});
        QCOMPARE(e.code, 2);
        QVERIFY2(e.err.contains(empty + ": the project file is empty (0 bytes)"), qPrintable(e.err));

        const QString project = trainedProject("predict");
        QVERIFY(!project.isEmpty());
        const QString image = dir_.filePath("pipe.png");
        QCOMPARE(::mkfifo(image.toLocal8Bit().constData(), 0600), 0);
        const CliRun p = cli({"predict", project, image}, 20000);
        QCOMPARE(p.code, 2);
        QVERIFY2(p.err.contains(image + ": is a named pipe (FIFO), not an image file"), qPrintable(p.err));
        const CliRun d = cli({"predict", project, "/dev/zero"}, 20000);
        QCOMPARE(d.code, 2);
        QVERIFY2(d.err.contains("/dev/zero: is a character device, not an image file"), qPrintable(d.err));
        // A FIFO in a dataset folder is a skipped file, not a hang.
        const QString data = dir_.filePath("fifo-data");
        writeImageFolder(data);
        QCOMPARE(::mkfifo((data + "/train/dark/pipe.png").toLocal8Bit().constData(), 0600), 0);
        Project withPipe = tinyImageProject(data, 1);
        const CliRun t = cli({"train", save(withPipe, "fifo-data")}, 60000);
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains("pipe.png: is a named pipe (FIFO), not an image file"), qPrintable(t.out));
    }

    // 4. Inputs that leaked internal errors now say what is wrong, with exit 2.
    void inputErrorsNameTheFieldWithExitTwo() {
        nlohmann::json noNodes = tinyJson();
        noNodes["model"]["nodes"] = nlohmann::json::array();
        noNodes["model"]["edges"] = nlohmann::json::array();
        for (const char* cmd : {"info", "train"}) {
            const CliRun r = cli({cmd, saveRaw(noNodes, "no-nodes")});
            QCOMPARE(r.code, 2);
            QVERIFY2((r.out + r.err).contains("the graph has no layers"), qPrintable(r.out + r.err));
            verifyNoInternalText(r);
        }
        const QString project = trainedProject("ids");
        QVERIFY(!project.isEmpty());
        const CliRun id = cli({"runs", "compare", project, "1", "99999999999999999999"});
        QCOMPARE(id.code, 2);
        QVERIFY2(id.err.contains("99999999999999999999 is too large"), qPrintable(id.err));
        const CliRun opt = cli({"checkpoints", "list", project, "--run", "99999999999999999999"});
        QCOMPARE(opt.code, 2);
        QVERIFY2(opt.err.contains("option --run: 99999999999999999999 is too large"), qPrintable(opt.err));
        verifyNoInternalText(id);
        // The project where the subcommand goes: said so, not "missing PROJECT".
        for (const char* cmd : {"runs", "checkpoints"}) {
            const CliRun r = cli({cmd, project});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QString("unknown subcommand '%1 %2' (list, ").arg(cmd, project)) &&
                         r.err.contains("the subcommand comes before PROJECT") && !r.err.contains("missing PROJECT"),
                     qPrintable(r.err));
        }
        const CliRun none = cli({"dataset"});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("missing a subcommand (inspect, import-idx)"), qPrintable(none.err));

        // A cycle: its members are named together; the layer after it is not accused.
        nlohmann::json cycle = tinyJson();
        cycle["model"]["nodes"].push_back({{"id", "add"}, {"type", "Add"}, {"name", "add"}});
        cycle["model"]["edges"] = {{{"from", "input:0"}, {"to", "add:0"}},     {{"from", "dense:0"}, {"to", "add:1"}},
                                   {{"from", "add:0"}, {"to", "flatten:0"}},   {{"from", "flatten:0"}, {"to", "dense:0"}},
                                   {{"from", "dense:0"}, {"to", "softmax:0"}}};
        const CliRun c = cli({"info", saveRaw(cycle, "cycle")});
        QCOMPARE(c.code, 2);
        QVERIFY2(c.out.contains("node 'add': inputs: is part of a cycle through 'flatten', 'dense', 'add'"), qPrintable(c.out));
        QVERIFY2(!c.out.contains("node 'softmax'"), qPrintable(c.out));
        QVERIFY2(!c.out.contains("is not connected"), qPrintable(c.out));
    }

    // 4b. Damaged and foreign run stores: exit 2, a message about the file, no SQL.
    void damagedStoresAreNamedNotMisreported() {
        const QString project = trainedProject("store");
        QVERIFY(!project.isEmpty());
        const QString store = QString::fromStdString(RunStore::path_for_project(project.toStdString()));
        // Header bytes 18-19 (file format write/read version) of 3/2: SQLite opens it read-only.
        {
            QFile f(store);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(18);
            f.write(QByteArray("\x03\x02", 2));
        }
        const CliRun resume = cli({"train", project, "--resume"});
        QCOMPARE(resume.code, 2);
        QVERIFY2(resume.err.contains("its header is damaged") && !resume.err.contains("make it writable"),
                 qPrintable(resume.err));
        // An SQLite database of another program.
        const QString other = save(tinyImageProject(images_, 1), "foreign");
        const QString otherStore = QString::fromStdString(RunStore::path_for_project(other.toStdString()));
        QProcess sqlite;
        sqlite.start("python3", {"-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
                                       "c.executescript('CREATE TABLE runs(x INTEGER); CREATE TABLE notes(t TEXT);'); c.close()",
                                 otherStore});
        QVERIFY(sqlite.waitForFinished(20000) && sqlite.exitCode() == 0);
        for (const QStringList& args : {QStringList{"runs", "list", other}, QStringList{"train", other}}) {
            const CliRun r = cli(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("is an SQLite database with the tables notes, runs but not a Layerforge run store"),
                     qPrintable(r.err));
            verifyNoInternalText(r);
        }
    }

    // 4c. A full disk while the weights are saved or an export is written: exit 1, "no space
    // left" with the free and needed sizes, and the run is not recorded as finished.
    void fullDiskDuringTheLastWritesIsExitOne() {
        const QString source = save(tinyImageProject(images_, 1), "disk");
        const QString vol = dir_.filePath("disk-vol"), out = dir_.filePath("disk-out");
        QVERIFY(QDir().mkpath(vol) && QDir().mkpath(out));
        const CliRun r = isolated(R"(mount -t tmpfs -o size=8m tmpfs "$VOL" || exit 90
            mkdir "$VOL/small" && mount -t tmpfs -o size=64k tmpfs "$VOL/small" || exit 91
            mkdir "$VOL/small/export"
            dd if=/dev/zero of="$VOL/small/fill" bs=4k count=64 2> /dev/null
            cp "$SRC" "$VOL/p.lfproj"
            "$LF_CLI" train "$VOL/p.lfproj" --weights-out "$VOL/small/w.safetensors" 2> "$OUT/train.err"
            echo "$?" > "$OUT/train.rc"
            "$LF_CLI" runs list "$VOL/p.lfproj" --json > "$OUT/runs.txt"
            "$LF_CLI" train "$VOL/p.lfproj" > /dev/null || exit 92
            "$LF_CLI" export "$VOL/p.lfproj" --format pytorch --out "$VOL/small/export" 2> "$OUT/export.err"
            echo "$?" > "$OUT/export.rc"
            ls -A "$VOL/small/export" > "$OUT/export.ls" 2>&1
            exit 0)",
                                 {{"VOL", vol}, {"OUT", out}, {"SRC", source}});
        QVERIFY2(r.code == 0, qPrintable(QString("setup step %1: %2").arg(r.code).arg(r.err)));
        QCOMPARE(fileBytes(out + "/train.rc").trimmed(), QByteArray("1"));
        const QString err = fileBytes(out + "/train.err");
        QVERIFY2(err.contains("w.safetensors: cannot save the weights: no space left on the device of") &&
                     err.contains(" free, ") && err.contains(" needed"),
                 qPrintable(err));
        QVERIFY2(fileBytes(out + "/runs.txt").contains("\"status\":\"failed\""), qPrintable(fileBytes(out + "/runs.txt")));
        QCOMPARE(fileBytes(out + "/export.rc").trimmed(), QByteArray("1"));
        const QString exportErr = fileBytes(out + "/export.err");
        QVERIFY2(exportErr.contains("no space left on the device of") && !exportErr.contains("check that the folder exists"),
                 qPrintable(exportErr));
        // Nothing half-written stays: no model.py without its weights, no staging folder.
        const QByteArray left = fileBytes(out + "/export.ls");
        QVERIFY2(!left.contains("model.py") && !left.contains("staging"), left.constData());
    }

    // 6. An export killed at any moment leaves the old set, or a set the next plain export
    // replaces (no --force); temporaries of the killed processes are cleaned.
    void killedExportsAreReplacedWithoutForce() {
        const QString project = trainedProject("killed");
        QVERIFY(!project.isEmpty());
        const QString outDir = dir_.filePath("killed-out");
        std::mt19937 rng(5);
        for (int i = 0; i < 8; ++i) {
            QProcess p;
            p.start(qEnvironmentVariable("LF_CLI"), {"export", project, "--format", "pytorch", "--out", outDir, "--force"});
            QVERIFY(p.waitForStarted());
            QThread::msleep(std::uniform_int_distribution<int>(0, 120)(rng));
            ::kill(pid_t(p.processId()), SIGKILL);
            p.waitForFinished();
            const CliRun again = cli({"export", project, "--format", "pytorch", "--out", outDir});
            const bool complete = QFileInfo::exists(outDir + "/model.py") && QFileInfo::exists(outDir + "/model_state.safetensors");
            // Either the killed export had finished (a complete set: refused without --force), or
            // the next one replaced what it left.
            if (again.code == 2) {
                QVERIFY2(again.err.contains("already exist") && complete, qPrintable(again.err));
            } else {
                QVERIFY2(again.code == 0, qPrintable(again.err));
            }
            QVERIFY(complete);
            const QStringList left = QDir(outDir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
            QCOMPARE(left, QStringList({"model.py", "model_state.safetensors"}));
            QDir(outDir).removeRecursively();
        }
    }

    // 6b. Two trainings of one project at once: the second is refused naming the first's PID.
    void secondTrainingOfAProjectIsRefused() {
        Project p = tinyImageProject(images_, 100000);
        const QString path = save(p, "twice");
        QProcess first;
        first.start(qEnvironmentVariable("LF_CLI"), {"train", path});
        QVERIFY(first.waitForStarted());
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT((said += first.readAllStandardOutput()).contains("recorded in"), 30000);
        const CliRun second = cli({"train", path});
        first.kill();
        first.waitForFinished();
        QCOMPARE(second.code, 1);
        QVERIFY2(second.err.contains("another training of " + path + " is running in process " +
                                     QString::number(first.processId())) ||
                     second.err.contains("another training of " + path + " is running in process"),
                 qPrintable(second.err));
        // The lock goes with its process, kill -9 included.
        const CliRun after = cli({"train", path, "--epochs", "1"});
        QVERIFY2(after.code == 0, qPrintable(after.err));
    }

    // 7. Names have a length cap and no control characters; files have a size cap.
    void oversizedAndControlTextIsRefused() {
        nlohmann::json longName = tinyJson();
        longName["model"]["nodes"][2]["name"] = std::string(300, 'x');
        const CliRun l = cli({"info", saveRaw(longName, "long-name")});
        QCOMPARE(l.code, 2);
        QVERIFY2(l.err.contains("model.nodes[2].name: the text is 300 bytes long; at most 256 are allowed"), qPrintable(l.err));
        nlohmann::json nul = tinyJson();
        nul["model"]["nodes"][2]["name"] = std::string("a\0b", 3);
        const CliRun n = cli({"info", saveRaw(nul, "nul-name")});
        QCOMPARE(n.code, 2);
        QVERIFY2(n.err.contains("contains a control character (code 0)"), qPrintable(n.err));
        QVERIFY(!n.err.contains(QChar(0)));
        nlohmann::json huge = tinyJson();
        huge["model"]["nodes"][2]["name"] = std::string(100 << 20, 'x');
        const CliRun h = cli({"info", saveRaw(huge, "huge-name")});
        QCOMPARE(h.code, 2);
        QVERIFY2(h.err.contains("a project file may have at most"), qPrintable(h.err));
    }
};

QTEST_MAIN(TestCliHardening)
#include "test_cli_hardening.moc"
