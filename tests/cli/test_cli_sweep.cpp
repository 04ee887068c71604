// layerforge-cli sweep end to end on a small slice of Fashion-MNIST: a grid whose trials are
// tagged runs, the median rule ending a bad trial, bad parameters refused before any training,
// a sweep killed in the middle of a trial continuing with the trials it still owes, and one
// stopped by Ctrl-C (its trial "stopped" with its weights, exit 3) continuing the same way.
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <csignal>

#include "cli_runner.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"

namespace {

const QStringList kSmall{"--limit-train", "300", "--limit-test", "100", "--log-every", "1000"};

}  // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void grid_trains_one_tagged_run_per_trial() {
        const QString project = mlpProjectCopy(dir_, "grid");
        const CliRun r = cli(QStringList{"sweep", project, "--grid", "learning_rate=1e-3,1e-2", "batch_size=50,100",
                                         "--epochs", "2", "--name", "lr-bs"} + kSmall);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("sweep lr-bs: 4 trials, 4 to train, ranked by val_loss"), qPrintable(r.out));
        QVERIFY(r.out.contains(R"(trial 4/4 {"learning_rate":0.01,"batch_size":100})"));
        QVERIFY(r.out.contains("best: trial "));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        const std::vector<lf::RunInfo> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(4));
        const std::optional<lf::SweepInfo> s = store.sweep("lr-bs");
        QVERIFY(s);
        for (std::size_t i = 0; i < 4; ++i) {
            const lf::SweepTrial& t = s->trials[i];
            QCOMPARE(t.status, std::string("finished"));
            const lf::RunInfo run = store.run(t.run);
            QCOMPARE(run.tags, std::vector<std::string>{"sweep:lr-bs"});
            QVERIFY2(QString::fromStdString(run.name).endsWith(QString(" lr-bs #%1").arg(i + 1)), run.name.c_str());
            QCOMPARE(run.status, lf::RunStatus::Finished);
            // The run trained the trial's settings: its snapshot holds them.
            const auto settings = nlohmann::json::parse(run.settings);
            const auto trial = nlohmann::json::parse(t.settings);
            QCOMPARE(settings["training"]["batch_size"], trial["batch_size"]);
            QCOMPARE(settings["training"]["optimizer"]["learning_rate"].get<double>(), trial["learning_rate"].get<double>());
            // The objective is the best epoch's val_loss as the run store has it.
            double best = 1e9;
            for (const lf::MetricRow& m : store.metrics(t.run, "val"))
                if (m.name == "loss") best = std::min(best, m.value);
            QCOMPARE(t.objective, best);
            QVERIFY(QFile::exists(dir_.filePath(QString("grid.sweeps/lr-bs/trial-%1.weights.safetensors").arg(i + 1))));
        }
        // The table after the trials lists them best first, the best one starred.
        const QStringList lines = r.out.split('\n');
        const qsizetype header = lines.indexOf(QRegularExpression("^ *trial +status +val_loss +run +settings$"));
        QVERIFY2(header >= 0 && header + 4 < lines.size(), qPrintable(r.out));
        std::vector<double> listed;
        for (qsizetype l = header + 1; l <= header + 4; ++l)
            listed.push_back(lines[l].simplified().split(' ')[2 + (lines[l].startsWith('*') ? 1 : 0)].toDouble());
        QVERIFY2(std::is_sorted(listed.begin(), listed.end()), qPrintable(r.out));
        QVERIFY2(lines[header + 1].startsWith('*'), qPrintable(r.out));
        QVERIFY(!QFile::exists(dir_.filePath("grid.weights.safetensors")));  // the project's own weights are untouched
        QCOMPARE(lf::load_project(project.toStdString()).training.batch_size, std::int64_t(50));

        // The same command again: nothing is owed, the table is printed again.
        const CliRun again = cli(QStringList{"sweep", project, "--grid", "learning_rate=1e-3,1e-2", "batch_size=50,100",
                                             "--epochs", "2", "--name", "lr-bs"} + kSmall);
        QVERIFY2(again.code == 0 && again.out.contains("continuing sweep lr-bs: 4 trials, 0 to train"), qPrintable(again.out));
        const CliRun other = cli(QStringList{"sweep", project, "--grid", "learning_rate=1e-4", "--name", "lr-bs"} + kSmall);
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("sweep 'lr-bs' already exists") && other.err.contains("with other trials"), qPrintable(other.err));
    }

    void median_rule_stops_a_bad_trial() {
        // Two good trials first; the third (a learning rate far too small) falls behind their median.
        const QString project = mlpProjectCopy(dir_, "median");
        const CliRun r = cli(QStringList{"sweep", project, "--grid", "learning_rate=1e-2,5e-3,1e-7", "--epochs", "4",
                                         "--early-stop", "median", "--name", "m"} + kSmall);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        const lf::SweepInfo s = *store.sweep("m");
        QCOMPARE(s.trials[0].status, std::string("finished"));
        QCOMPARE(s.trials[1].status, std::string("finished"));
        QCOMPARE(s.trials[2].status, std::string("pruned"));
        QVERIFY2(r.out.contains("trial 3 pruned") && r.out.contains("stopped early"), qPrintable(r.out));
        QVERIFY(store.run(s.trials[2].run).last_epoch < 4);
        QCOMPARE(nlohmann::json::parse(s.trials[2].curve).size(), std::size_t(2));  // stopped after the warm-up + 1
    }

    void bad_parameters_are_refused_before_training() {
        const QString project = mlpProjectCopy(dir_, "bad");
        struct Case {
            QStringList args;
            const char* message;
        } cases[] = {
            {{"--grid", "learnin_rate=1e-3"}, "unknown sweep parameter 'learnin_rate'"},
            {{"--grid", "dense.units=0,10"}, "sweep parameter dense.units = 0"},
            {{"--grid", "learning_rate=log:1e-4..1e-2"}, "ranges are for --random"},
            {{"--random", "3", "learning_rate=log:1e-2..1e-4"}, "is empty"},
            {{"--grid", "--random", "2", "seed=1,2"}, "choose one of --grid"},
            {{"--grid"}, "give the parameters to sweep"},
            {{"--resume", "nothing"}, "no sweep named 'nothing'"},
            {{"--grid", "seed=1", "--name", "a/b"}, "sweep name 'a/b'"},
        };
        for (const Case& c : cases) {
            const CliRun r = cli(QStringList{"sweep", project} + c.args + kSmall);
            QVERIFY2(r.code == 2 && r.err.contains(c.message), qPrintable(c.args.join(' ') + ": " + r.err));
        }
        QVERIFY(!QFile::exists(dir_.filePath("bad.lfruns")) ||
                lf::RunStore(dir_.filePath("bad.lfruns").toStdString()).runs().empty());
    }

    void killed_sweep_continues_with_the_trials_it_owes() {
        const QString project = mlpProjectCopy(dir_, "crash");
        const QStringList args = QStringList{"sweep", project, "--random", "3", "learning_rate=log:1e-3..1e-2",
                                             "--epochs", "3", "--name", "r"} + kSmall;
        QProcess p;
        p.start(qEnvironmentVariable("LF_CLI"), args);
        QVERIFY(p.waitForStarted());
        QString out;
        // Kill it in trial 2, after that trial's first epoch (and its checkpoint) is committed.
        auto killable = [&] {
            const qsizetype second = out.indexOf("trial 2/3");
            return second >= 0 && out.indexOf("checkpoint ckpt-", second) >= 0;
        };
        while (!killable()) {
            QVERIFY2(p.waitForReadyRead(60000), qPrintable(out));
            out += p.readAllStandardOutput();
        }
        ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished();
        {
            lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
            const lf::SweepInfo s = *store.sweep("r");
            QCOMPARE(s.trials[0].status, std::string("finished"));
            QCOMPARE(s.trials[1].status, std::string("running"));
            QCOMPARE(store.run(s.trials[1].run).status, lf::RunStatus::Interrupted);
        }
        const CliRun r = cli({"sweep", project, "--resume", "r", "--limit-train", "300", "--limit-test", "100", "--epochs", "3"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("continuing sweep r: 3 trials, 2 to train"), qPrintable(r.out));
        QVERIFY2(r.out.contains("(continuing run 2)"), qPrintable(r.out));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        const lf::SweepInfo s = *store.sweep("r");
        for (const lf::SweepTrial& t : s.trials) QCOMPARE(t.status, std::string("finished"));
        QCOMPARE(store.runs().size(), std::size_t(3));  // the killed trial's run was continued, not repeated
        QCOMPARE(nlohmann::json::parse(s.trials[1].curve).size(), std::size_t(3));
        QCOMPARE(store.run(s.trials[1].run).status, lf::RunStatus::Finished);
    }

    void ctrl_c_stops_the_trial_and_resume_continues_it() {
        const QString project = mlpProjectCopy(dir_, "stopped");
        QProcess p;
        p.start(qEnvironmentVariable("LF_CLI"), QStringList{"sweep", project, "--grid", "learning_rate=1e-2,5e-3,1e-3",
                                                            "--epochs", "100000", "--name", "s"} + kSmall);
        QVERIFY(p.waitForStarted());
        QString out;
        // Once trial 1 has committed its first checkpoint.
        while (!(out.contains("trial 1/3") && out.contains("checkpoint ckpt-")) && p.state() == QProcess::Running) {
            if (!p.waitForReadyRead(60000)) break;
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.contains("checkpoint ckpt-"), qPrintable(out));
        ::kill(pid_t(p.processId()), SIGINT);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            QFAIL("the sweep did not end within 60 s of SIGINT");
        }
        out += p.readAllStandardOutput();
        const QString err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 3, qPrintable(QString("exit %1\n").arg(p.exitCode()) + err));
        QVERIFY2(err.contains("stopping after this step (Ctrl-C again to quit at once)"), qPrintable(err));
        QVERIFY2(out.contains("trial 1 stopped: ") && !out.contains("trial 2/3"), qPrintable(out));
        QVERIFY2(out.contains("sweep s stopped; continue it with: layerforge-cli sweep " + project + " --resume s"), qPrintable(out));
        std::int64_t epochs = 0;
        {
            lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
            const lf::SweepInfo s = *store.sweep("s");
            QCOMPARE(s.trials[0].status, std::string("stopped"));
            QCOMPARE(s.trials[1].status, std::string("pending"));
            QCOMPARE(s.trials[2].status, std::string("pending"));
            const lf::RunInfo run = store.run(s.trials[0].run);
            QCOMPARE(run.status, lf::RunStatus::Stopped);
            QCOMPARE(store.checkpoints(run.id).back().step, run.last_step);  // checkpointed at the stop
            QVERIFY(QFile::exists(dir_.filePath("stopped.sweeps/s/trial-1.weights.safetensors")));
            epochs = run.last_epoch + 1;
        }
        const CliRun r = cli(QStringList{"sweep", project, "--resume", "s", "--epochs", QString::number(epochs)} + kSmall);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("continuing sweep s: 3 trials, 3 to train"), qPrintable(r.out));
        QVERIFY2(r.out.contains("(continuing run 1)"), qPrintable(r.out));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        const lf::SweepInfo s = *store.sweep("s");
        for (const lf::SweepTrial& t : s.trials) QCOMPARE(t.status, std::string("finished"));
        QCOMPARE(store.runs().size(), std::size_t(3));  // the stopped trial's run was continued
        QCOMPARE(store.runs()[0].status, lf::RunStatus::Finished);
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
