// runs tag|untag|star|unstar|note|delete through layerforge-cli, and runs list showing tags,
// stars, imported runs and final/best metrics from the store's summaries.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "layerforge/store/run_store.h"

using nlohmann::json;

class TestCliRunEdits : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;
    std::int64_t finished_ = 0, running_ = 0, imported_ = 0;

private slots:
    void initTestCase() {
        project_ = dir_.filePath("edits.lfproj");  // the store is all these commands read
        lf::RunStore store(lf::RunStore::path_for_project(project_.toStdString()));
        finished_ = store.create_run({.name = "done", .graph = "{}", .settings = "{}"});
        store.append_metrics({{finished_, 10, 1, "epoch", "loss", 0.5, 0}, {finished_, 10, 1, "val", "loss", 0.7, 0},
                              {finished_, 20, 2, "epoch", "loss", 0.4, 0}, {finished_, 20, 2, "val", "loss", 0.9, 0}});
        store.set_status(finished_, lf::RunStatus::Finished);
        running_ = store.create_run({.name = "live", .graph = "{}", .settings = "{}"});  // this process trains it
        imported_ = store.create_run({.name = "keras", .graph = "{}", .settings = "{}", .source = "tensorboard:/logs/k"});
        store.set_status(imported_, lf::RunStatus::Finished);
    }

    void tag_untag_star_note_show_in_the_listing() {
        const QString id = QString::number(finished_);
        CliRun tag = cli({"runs", "tag", project_, id, "baseline", "sweep:lr", "baseline"});
        QVERIFY2(tag.code == 0, qPrintable(tag.err));
        QVERIFY2(tag.out.contains("tags: baseline, sweep:lr"), qPrintable(tag.out));
        QCOMPARE(cli({"runs", "untag", project_, id, "sweep:lr"}).code, 0);
        QCOMPARE(cli({"runs", "star", project_, id, QString::number(imported_)}).code, 0);
        QCOMPARE(cli({"runs", "unstar", project_, QString::number(imported_)}).code, 0);
        QCOMPARE(cli({"runs", "note", project_, id, "the reference"}).code, 0);

        const json list = cli({"runs", "list", project_, "--json"}).lines().back();
        const json& done = list["runs"][0];
        QCOMPARE(done["tags"], json::array({"baseline"}));
        QCOMPARE(done["starred"], true);
        QCOMPARE(done["notes"], "the reference");
        QCOMPARE(done["final"]["val_loss"].get<double>(), 0.9);
        QCOMPARE(done["best"]["val_loss"].get<double>(), 0.7);
        QCOMPARE(done["steps"], 20);
        QCOMPARE(list["runs"][2]["starred"], false);
        QCOMPARE(list["runs"][2]["source"], "tensorboard:/logs/k");

        const CliRun text = cli({"runs", "list", project_});
        QVERIFY2(text.out.contains(QString("%1 * done").arg(finished_, 4)), qPrintable(text.out));
        QVERIFY2(text.out.contains("[baseline]"), qPrintable(text.out));
        QVERIFY2(text.out.contains("imported from tensorboard:/logs/k"), qPrintable(text.out));
    }

    void bad_edits_say_what_is_wrong() {
        const CliRun badTag = cli({"runs", "tag", project_, QString::number(finished_), "a,b"});
        QCOMPARE(badTag.code, 2);
        QVERIFY2(badTag.err.contains("tag 'a,b'"), qPrintable(badTag.err));
        const CliRun unknown = cli({"runs", "star", project_, "99"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains("no run 99"), qPrintable(unknown.err));
        QCOMPARE(cli({"runs", "tag", project_, QString::number(finished_)}).code, 2);  // no tag given
    }

    void delete_refuses_a_running_run_and_removes_a_finished_one() {
        const CliRun refused = cli({"runs", "delete", project_, QString::number(running_)});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("(live) is training now"), qPrintable(refused.err));
        const CliRun done = cli({"runs", "delete", project_, QString::number(imported_)});
        QVERIFY2(done.code == 0, qPrintable(done.err));
        QVERIFY(done.out.contains("deleted run"));
        lf::RunStore store(lf::RunStore::path_for_project(project_.toStdString()), false);
        QCOMPARE(store.runs().size(), std::size_t(2));
        QCOMPARE(store.run(running_).name, std::string("live"));
    }
};

QTEST_GUILESS_MAIN(TestCliRunEdits)
#include "test_cli_run_edits.moc"
