// What the checkpoint browser needs from lf::RunStore beyond training: deleting a checkpoint
// (refused while pinned), and the settings that differ between two runs.
#include <QTemporaryDir>
#include <QtTest>

#include "layerforge/store/run_diff.h"
#include "layerforge/store/run_store.h"
#include "lf_test_util.h"

using namespace lf;

class TestStoreBrowse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deleteCheckpointRefusesPinned() {
        QTemporaryDir dir;
        RunStore store(dir.filePath("p.lfruns").toStdString());
        const std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        const RetentionPolicy keepAll{.max_to_keep = 0};
        const std::int64_t a = store.save_checkpoint(run, 10, 1, "{}", "blob-a", keepAll);
        const std::int64_t b = store.save_checkpoint(run, 20, 2, "{}", "blob-b", keepAll);
        store.set_pinned(a, true);
        LF_EXPECT_INPUT_ERROR(store.delete_checkpoint(a), "pinned", "unpin");
        store.delete_checkpoint(b);
        std::vector<CheckpointInfo> left = store.checkpoints(run);
        QCOMPARE(left.size(), std::size_t(1));
        QCOMPARE(left[0].id, a);
        LF_EXPECT_INPUT_ERROR(store.delete_checkpoint(b), "no checkpoint");
        store.set_pinned(a, false);
        store.delete_checkpoint(a);
        QVERIFY(store.checkpoints(run).empty());
    }

    void settingsDiffListsChangedKeys() {
        RunInfo a, b;
        a.graph = R"({"nodes": [{"id": "d", "position": [0, 0], "params": {"units": 10}}]})";
        b.graph = R"({"nodes": [{"id": "d", "position": [50, 9], "params": {"units": 12}}]})";
        a.settings = R"({"training": {"batch_size": 50, "epochs": 5}})";
        b.settings = R"({"training": {"batch_size": 64, "epochs": 5, "seed": 7}})";
        const std::vector<SettingDifference> d = settings_diff(a, b);
        QCOMPARE(d.size(), std::size_t(3));  // the moved node's position is layout, not a setting
        QCOMPARE(d[0].key, std::string("/model/nodes/0/params/units"));
        QCOMPARE(d[0].a, std::string("10"));
        QCOMPARE(d[0].b, std::string("12"));
        QCOMPARE(d[1].key, std::string("/settings/training/batch_size"));
        QCOMPARE(d[2].key, std::string("/settings/training/seed"));
        QCOMPARE(d[2].a, std::string());
        QCOMPARE(d[2].b, std::string("7"));
        QVERIFY(settings_diff(a, a).empty());
    }
};

QTEST_APPLESS_MAIN(TestStoreBrowse)
#include "test_store_browse.moc"
