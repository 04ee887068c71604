// The Train page's Processes option: mpirun looked up on PATH (disabled, with the reason, when it
// is missing), the choice kept between sessions, the mpirun command line built for N processes,
// a hostfile, root and more processes than cores, what keeps a job from starting, and Pause off
// for a job.
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "document/project_document.h"
#include "document/set_training.h"
#include "session/studio_session.h"
#include "training/job_project.h"
#include "training/mpi_command.h"
#include "training/processes_field.h"
#include "training/run_options_form.h"
#include "training/training_panel.h"
#include "image_folder_fixture.h"

using namespace lf;
using namespace lf::ui;

namespace {

// An executable file named mpirun in `dir`.
QString fakeMpirun(const QString& dir) {
    const QString path = dir + "/mpirun";
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write("#!/bin/sh\nexit 0\n") < 0) return {};
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

bool write(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

TrainingOptions job(int processes, const QString& hostfile = {}) {
    TrainingOptions o;
    o.processes = processes;
    o.hostfile = hostfile;
    return o;
}

// The arguments after the CLI's path: what layerforge-cli train gets.
QStringList cliPart(const ProcessCommand& c) { return c.arguments.mid(c.arguments.indexOf("/opt/lf/layerforge-cli") + 1); }

}  // namespace

class TestDistributedOptions : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QByteArray path_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = qgetenv("PATH");
    }
    void init() { QSettings().clear(); }
    void cleanup() { qputenv("PATH", path_); }

    void findsMpirunOnPathOnly() {
        const QString bin = dir_.filePath("bin"), empty = dir_.filePath("empty");
        QDir().mkpath(bin);
        QDir().mkpath(empty);
        const QString mpirun = fakeMpirun(bin);
        QVERIFY(!mpirun.isEmpty());
        QCOMPARE(findMpirun(empty + ":" + bin), mpirun);
        QCOMPARE(findMpirun(empty), QString());
        QCOMPARE(findMpirun(QString()), QString());
        QFile::setPermissions(mpirun, QFile::ReadOwner);  // not executable: not a launcher
        QCOMPARE(findMpirun(bin), QString());
        QFile::setPermissions(mpirun, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("PATH", (bin + ":" + empty).toUtf8());
        QCOMPARE(findMpirun(), mpirun);
        QCOMPARE(thisHost().mpirun, mpirun);
        QVERIFY(thisHost().cores >= 1);
    }

    void commandForTwoProcessesHere() {
        const MpiHost host{"/usr/bin/mpirun", 4, false};
        TrainingOptions o = job(2);
        const ProcessCommand c = mpiTrainCommand(host, "/opt/lf/layerforge-cli", "/p/x.lfproj", o, {});
        QCOMPARE(c.program, QString("/usr/bin/mpirun"));
        QCOMPARE(c.arguments.mid(0, 3), (QStringList{"-np", "2", "/opt/lf/layerforge-cli"}));
        QVERIFY(!c.arguments.contains("--oversubscribe") && !c.arguments.contains("--allow-run-as-root"));
        QVERIFY(!c.arguments.contains("--hostfile"));
        // The run options as the in-process run applies them (TrainingOptions' defaults).
        QCOMPARE(cliPart(c), (QStringList{"train", "/p/x.lfproj", "--distributed", "--json", "--log-every", "1",
                                          "--checkpoint-every", "0", "--checkpoint-epochs", "1", "--keep", "5",
                                          "--best-mode", "auto", "--device", "cpu"}));
    }

    void commandCarriesEveryRunOption() {
        TrainingOptions o = job(3);
        o.checkpointEverySteps = 50;
        o.checkpointEveryEpochs = 0;
        o.keep = 2;
        o.bestMetric = "val_accuracy";
        o.bestMode = "max";
        o.limitTrain = 600;
        o.tensorboardDir = "/tmp/tb dir";
        const QStringList a = cliPart(mpiTrainCommand({"/m", 8, false}, "/opt/lf/layerforge-cli", "/p/x.lfproj", o, "42"));
        auto value = [&](const char* option) {
            const qsizetype i = a.indexOf(option);
            return i >= 0 && i + 1 < a.size() ? a[i + 1] : QString("<missing>");
        };
        QCOMPARE(value("--checkpoint-every"), QString("50"));
        QCOMPARE(value("--checkpoint-epochs"), QString("0"));
        QCOMPARE(value("--keep"), QString("2"));
        QCOMPARE(value("--best-metric"), QString("val_accuracy"));
        QCOMPARE(value("--best-mode"), QString("max"));
        QCOMPARE(value("--limit-train"), QString("600"));
        QCOMPARE(value("--tensorboard"), QString("/tmp/tb dir"));  // one argument: no shell between
        QCOMPARE(value("--resume"), QString("42"));
        QVERIFY(!a.contains("--hostfile"));  // mpirun's option, never the CLI's
    }

    void oversubscribeOnlyForMoreProcessesThanCoresHere() {
        auto has = [](const ProcessCommand& c) { return c.arguments.contains("--oversubscribe"); };
        QVERIFY(!has(mpiTrainCommand({"/m", 2, false}, "/cli", "/p", job(2), {})));
        QVERIFY(has(mpiTrainCommand({"/m", 2, false}, "/cli", "/p", job(3), {})));
        QVERIFY(has(mpiTrainCommand({"/m", 1, false}, "/cli", "/p", job(2), {})));
        // A hostfile's slots decide where ranks go: this machine's cores say nothing about them.
        const ProcessCommand hosts = mpiTrainCommand({"/m", 2, false}, "/cli", "/p", job(8, "/etc/hosts.mpi"), {});
        QVERIFY(!has(hosts));
        const qsizetype i = hosts.arguments.indexOf("--hostfile");
        QVERIFY(i >= 0 && i < hosts.arguments.indexOf("/cli"));
        QCOMPARE(hosts.arguments[i + 1], QString("/etc/hosts.mpi"));
        QCOMPARE(hosts.arguments.mid(0, 2), (QStringList{"-np", "8"}));
    }

    void rootNeedsAllowRunAsRoot() {
        const ProcessCommand root = mpiTrainCommand({"/m", 4, true}, "/cli", "/p", job(2), {});
        QVERIFY(root.arguments.indexOf("--allow-run-as-root") >= 0);
        QVERIFY(root.arguments.indexOf("--allow-run-as-root") < root.arguments.indexOf("/cli"));
        QVERIFY(!mpiTrainCommand({"/m", 4, false}, "/cli", "/p", job(2), {}).arguments.contains("--allow-run-as-root"));
    }

    void fieldIsOffWithTheReasonWithoutMpirun() {
        ProcessesField field{QString()};
        QVERIFY(!field.spin()->isEnabled());
        QVERIFY(!field.hostfileEdit()->isEnabled());
        QVERIFY(!field.hostfileBrowse()->isEnabled());
        QVERIFY(!field.note()->isHidden());
        QCOMPARE(field.note()->text(), QString("Open MPI's mpirun is not installed: apt install openmpi-bin"));
        QCOMPARE(field.spin()->toolTip(), field.note()->text());
        field.setValues(4, "/h");
        QCOMPARE(field.processes(), 1);  // a saved choice of another machine does not apply here
        QCOMPARE(field.hostfile(), QString());
    }

    void fieldWithMpirun() {
        ProcessesField field{QString("/usr/bin/mpirun")};
        QVERIFY(field.spin()->isEnabled());
        QVERIFY(field.note()->isHidden());
        QCOMPARE(field.processes(), 1);
        QVERIFY(!field.hostfileEdit()->isEnabled());  // a hostfile means nothing to one process
        QVERIFY(!field.spin()->toolTip().isEmpty());
        QSignalSpy changed(&field, &ProcessesField::changed);
        field.spin()->setValue(2);
        QVERIFY(field.hostfileEdit()->isEnabled() && field.hostfileBrowse()->isEnabled());
        field.hostfileEdit()->setText(" /etc/hosts.mpi ");
        QCOMPARE(changed.size(), 2);
        QCOMPARE(field.processes(), 2);
        QCOMPARE(field.hostfile(), QString("/etc/hosts.mpi"));
    }

    void choiceIsKeptBetweenSessions() {
        {
            RunOptionsForm form{QString("/usr/bin/mpirun")};
            form.processes()->spin()->setValue(3);
            form.processes()->hostfileEdit()->setText("/h.mpi");
            QCOMPARE(form.options().processes, 3);
            QCOMPARE(form.options().hostfile, QString("/h.mpi"));
        }
        RunOptionsForm again{QString("/usr/bin/mpirun")};
        QCOMPARE(again.options().processes, 3);
        QCOMPARE(again.options().hostfile, QString("/h.mpi"));
        RunOptionsForm elsewhere{QString()};  // the same settings where Open MPI is missing
        QCOMPARE(elsewhere.options().processes, 1);
    }

    void panelWithoutMpirunTrainsInProcess() {
        const QString empty = dir_.filePath("nompi");
        QDir().mkpath(empty);
        qputenv("PATH", empty.toUtf8());
        QSettings().setValue("train/processes", 2);
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 1), QString());
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        QVERIFY(!panel.runOptions()->processes()->spin()->isEnabled());
        QCOMPARE(panel.runOptions()->processes()->note()->text(), mpirunMissingReason());
        QCOMPARE(panel.controller()->options().processes, 1);
        QVERIFY(panel.startButton()->isEnabled());  // Start trains in the studio, as before
    }

    void whatKeepsAJobFromStarting() {
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 1), QString());
        StudioSession session(&doc);
        QCOMPARE(jobProblem(session, job(1), QString()), QString());  // in-process: no mpirun needed
        QCOMPARE(jobProblem(session, job(2), QString()), mpirunMissingReason());
        QCOMPARE(jobProblem(session, job(2), "/usr/bin/mpirun"), QString());  // untitled: a snapshot
        QVERIFY(jobProblem(session, job(2, dir_.filePath("no-such-hostfile")), "/m").contains("no-such-hostfile"));
        QVERIFY(write(dir_.filePath("hosts.mpi"), "localhost slots=2\n"));
        QCOMPARE(jobProblem(session, job(2, dir_.filePath("hosts.mpi")), "/m"), QString());
        TrainingOptions gpu = job(2);
        gpu.device = "cuda:0";
        QVERIFY(jobProblem(session, gpu, "/usr/bin/mpirun").contains("CPU"));
        // A named project the processes would read without its unsaved edits.
        const QString path = dir_.filePath("named.lfproj");
        doc.reset(tinyImageProject(dir_.filePath("images"), 1), path);
        QVERIFY(jobProblem(session, job(2), "/m").startsWith("save the project first"));  // not on disk
        QString error;
        QVERIFY2(doc.saveAs(path, &error), qPrintable(error));
        QCOMPARE(jobProblem(session, job(2), "/m"), QString());
        QCOMPARE(writeJobProject(session, &error), path);
        TrainingConfig t = doc.project().training;
        t.epochs += 1;
        doc.push(new SetTrainingCommand(&doc, t, doc.project().dataset));
        QVERIFY(jobProblem(session, job(2), "/m").startsWith("save the project first"));
    }

    void untitledSnapshotSitsBesideItsStore() {
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 2), QString());
        StudioSession session(&doc);
        QString error;
        const QString path = writeJobProject(session, &error);
        QVERIFY2(!path.isEmpty(), qPrintable(error));
        QCOMPARE(QFileInfo(path).dir(), QFileInfo(session.storePath()).dir());
        QCOMPARE(QFileInfo(path).fileName(), QString("untitled.lfproj"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), doc.serialized());
    }

    void panelBlocksAJobAndPauseSaysWhy() {
        const QString bin = dir_.filePath("bin2");
        QDir().mkpath(bin);
        QVERIFY(!fakeMpirun(bin).isEmpty());
        qputenv("PATH", bin.toUtf8());
        const QString path = dir_.filePath("panel.lfproj");
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 1), path);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        QVERIFY(panel.startButton()->isEnabled());
        panel.runOptions()->processes()->spin()->setValue(2);
        QCOMPARE(panel.controller()->options().processes, 2);
        QVERIFY(!panel.startButton()->isEnabled());  // the project is not on disk yet
        QVERIFY(panel.blockedReason()->text().contains("save the project first"));
        QString error;
        QVERIFY(doc.saveAs(path, &error));
        QVERIFY(panel.startButton()->isEnabled());  // saving tells the panel
        QVERIFY(panel.blockedReason()->isHidden());
        QVERIFY(panel.pauseButton()->toolTip().contains("cannot pause"));
        panel.runOptions()->processes()->spin()->setValue(1);
        QVERIFY(!panel.pauseButton()->toolTip().contains("cannot pause"));
    }
};

QTEST_MAIN(TestDistributedOptions)
#include "test_distributed_options.moc"
