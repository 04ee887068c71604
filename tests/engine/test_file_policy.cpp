// core/file_io.h's one open policy, its crash-safe writes, core/file_set.h's all-or-nothing file
// sets and core/file_lock.h, each against the files a kill or a hostile user leaves behind.
#include <QtTest>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/file_lock.h"
#include "layerforge/core/file_set.h"
#include "lf_test_util.h"

namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The PID of a process that has ended: what a kill -9 leaves in temporaries' names.
pid_t dead_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

std::vector<std::string> entries(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

class TestFilePolicy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void readsRegularFilesWithinTheCap() {
        write(path("ok.txt"), "hello");
        QCOMPARE(lf::read_file(path("ok.txt"), "note"), std::string("hello"));
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("ok.txt"), "note", 4), "ok.txt: is 5 bytes; a note may have at most 4 bytes");
        write(path("empty.txt"), "");
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("empty.txt"), "note"), "empty.txt: the note is empty (0 bytes)");
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("missing.txt"), "note"), "missing.txt: note not found");
        LF_EXPECT_INPUT_ERROR(lf::read_file(dir_.path().toStdString(), "note"), "is a folder, not a note");
        fs::create_symlink(path("gone.txt"), path("dangling.txt"));
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("dangling.txt"), "note"), "is a link to a missing file, not a note");
    }

    // A FIFO would block the reader forever and /dev/zero never ends: both are refused at once.
    void refusesFifosAndDevicesWithoutReading() {
        QCOMPARE(::mkfifo(path("pipe").c_str(), 0600), 0);
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("pipe"), "project file"), "pipe: is a named pipe (FIFO), not a project file");
        LF_EXPECT_INPUT_ERROR(lf::check_readable_file(path("pipe"), "image file", 1 << 20), "not an image file");
        fs::create_symlink("/dev/zero", path("zero"));
        LF_EXPECT_INPUT_ERROR(lf::read_file(path("zero"), "image file"), "zero: is a character device, not an image file");
        LF_EXPECT_INPUT_ERROR(lf::check_regular_if_present(path("pipe"), "run store"), "not a run store");
        lf::check_regular_if_present(path("not-there"), "run store");  // a store about to be created
    }

    // Writes go through a temporary unique to the process and call; a killed writer's are removed.
    void atomicWritesUseUniqueTemporariesAndCleanStaleOnes() {
        const std::string target = path("w.safetensors");
        const std::string stale = target + "." + std::to_string(dead_pid()) + "-0.tmp";
        const std::string live = target + "." + std::to_string(::getppid()) + "-0.tmp";  // a running process's
        write(stale, "half");
        write(live, "busy");
        lf::write_file_atomic(target, "weights", "weights");
        QCOMPARE(slurp(target), std::string("weights"));
        QVERIFY(!fs::exists(stale));
        QVERIFY(fs::exists(live));
        QVERIFY(lf::unique_temporary_path(target) != lf::unique_temporary_path(target));
        fs::remove(live);
    }

    // A set's write killed while renaming leaves its journal: the set is incomplete and listed;
    // the next write replaces it and removes the dead writer's staging folder.
    void fileSetsAreAllOrRecognisablyIncomplete() {
        const std::string out = path("export");
        lf::write_file_set(out, {{"model.py", "code v1"}, {"model_state.safetensors", "weights v1"}}, "export");
        QCOMPARE(entries(out), (std::vector<std::string>{"model.py", "model_state.safetensors"}));
        QVERIFY(lf::incomplete_file_set(out, "model.py").empty());
        // What a kill -9 between the renames leaves: new code, old weights, the journal, staging.
        const std::string staging = out + "/.model.py." + std::to_string(dead_pid()) + "-3.tmp.staging";
        fs::create_directory(staging);
        write(staging + "/model_state.safetensors", "weights v2");
        write(out + "/model.py", "code v2");
        write(out + "/.model.py.pending", "model.py\nmodel_state.safetensors\n");
        QCOMPARE(lf::incomplete_file_set(out, "model.py"), (std::vector<std::string>{"model.py", "model_state.safetensors"}));
        lf::write_file_set(out, {{"model.py", "code v3"}, {"model_state.safetensors", "weights v3"}}, "export");
        QCOMPARE(entries(out), (std::vector<std::string>{"model.py", "model_state.safetensors"}));
        QCOMPARE(slurp(out + "/model.py"), std::string("code v3"));
        QCOMPARE(slurp(out + "/model_state.safetensors"), std::string("weights v3"));
        QVERIFY(lf::incomplete_file_set(out, "model.py").empty());
    }

    // One holder at a time; the refusal names the holder's PID; the lock goes with its holder.
    void fileLockRefusesASecondHolderNamingThePid() {
        const std::string lock = path("p.lfruns.lock");
        {
            lf::FileLock first(lock, "another training of p.lfproj is running");
            try {
                lf::FileLock second(lock, "another training of p.lfproj is running");
                QFAIL("a second holder got the lock");
            } catch (const lf::Error& e) {
                QCOMPARE(e.kind(), lf::ErrorKind::Runtime);
                const std::string want =
                    "another training of p.lfproj is running in process " + std::to_string(::getpid()) + " (lock " + lock;
                QVERIFY2(std::string(e.what()).rfind(want, 0) == 0, e.what());
            }
        }
        lf::FileLock again(lock, "held");  // released with the first
    }
};

QTEST_APPLESS_MAIN(TestFilePolicy)
#include "test_file_policy.moc"
