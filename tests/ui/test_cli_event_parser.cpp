// layerforge-cli train --json output into the Train page's events: steps with their metrics in
// the trainer's order and each rank's rate, epoch ends with validation metrics, the run's
// record (run, resume, checkpoint, data, result, error), lines split across reads, and lines
// that are not such objects.
#include <QtTest>
#include <cmath>

#include "training/cli_event_parser.h"

using namespace lf;
using namespace lf::ui;

namespace {

const QByteArray kStep =
    R"({"event":"step","epoch":2,"epochs":3,"step":17,"steps_per_epoch":15,"total_steps":45,)"
    R"("metrics":{"loss":0.61,"accuracy":0.75},"data_wait_fraction":0.2,"learning_rate":0.001,)"
    R"("images_per_second":9999.5,"rank_images_per_second":[5012.25,4987.25],"eta_seconds":3.5,"elapsed_seconds":1.25})";

const QByteArray kEpochEnd =
    R"({"event":"epoch_end","epoch":1,"epochs":3,"step":15,"steps_per_epoch":15,"total_steps":45,)"
    R"("metrics":{"loss":0.7,"accuracy":0.5,"val_loss":0.8,"val_accuracy":null},"elapsed_seconds":1})";

}  // namespace

class TestCliEventParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepCarriesEverythingTheProgressAndChartsShow() {
        const auto c = parseCliLine(kStep);
        QVERIFY(c);
        QCOMPARE(c->type, CliEvent::Type::Train);
        const TrainEvent& e = c->train;
        QCOMPARE(e.kind, EventKind::Step);
        QCOMPARE(e.epoch, std::int64_t(2));
        QCOMPARE(e.epochs, std::int64_t(3));
        QCOMPARE(e.step, std::int64_t(17));
        QCOMPARE(e.steps_per_epoch, std::int64_t(15));
        QCOMPARE(e.total_steps, std::int64_t(45));
        QCOMPARE(e.metrics, (Metrics{{"loss", 0.61}, {"accuracy", 0.75}}));  // "loss" first, as the trainer has it
        QCOMPARE(e.learning_rate, 0.001);
        QCOMPARE(e.images_per_second, 9999.5);
        QCOMPARE(e.eta_seconds, 3.5);
        QCOMPARE(e.elapsed_seconds, 1.25);
        QCOMPARE(e.data_wait_fraction, 0.2);
        QCOMPARE(c->rankImagesPerSecond, (QList<double>{5012.25, 4987.25}));
    }

    void singleProcessStepHasNoRankRates() {
        const auto c = parseCliLine(R"({"event":"step","step":3,"metrics":{"loss":1}})");
        QVERIFY(c);
        QCOMPARE(c->train.step, std::int64_t(3));
        QVERIFY(c->rankImagesPerSecond.isEmpty());
    }

    void epochEndKeepsValidationAndNullAsNaN() {
        const auto c = parseCliLine(kEpochEnd);
        QVERIFY(c);
        QCOMPARE(c->train.kind, EventKind::EpochEnd);
        QCOMPARE(c->train.metrics.size(), std::size_t(4));
        QCOMPARE(c->train.metrics[2], (std::pair<std::string, double>{"val_loss", 0.8}));
        QCOMPARE(c->train.metrics[3].first, std::string("val_accuracy"));
        QVERIFY(std::isnan(c->train.metrics[3].second));  // the CLI writes a non-finite metric as null
    }

    void everyEngineEventKind() {
        const std::pair<const char*, EventKind> kinds[] = {
            {"run_started", EventKind::RunStarted}, {"paused", EventKind::Paused},   {"resumed", EventKind::Resumed},
            {"finished", EventKind::Finished},      {"stopped", EventKind::Stopped}, {"failed", EventKind::Failed}};
        for (const auto& [name, kind] : kinds) {
            const auto c = parseCliLine("{\"event\":\"" + QByteArray(name) + "\",\"message\":\"m\",\"epochs\":4}");
            QVERIFY2(c && c->type == CliEvent::Type::Train, name);
            QCOMPARE(c->train.kind, kind);
            QCOMPARE(c->train.message, std::string("m"));
            QCOMPARE(c->train.epochs, std::int64_t(4));
        }
    }

    void theRunsRecord() {
        auto run = parseCliLine(R"({"event":"run","run":7,"store":"/p/x.lfruns"})");
        QVERIFY(run && run->type == CliEvent::Type::Run);
        QCOMPARE(run->id, qint64(7));
        QCOMPARE(run->path, QString("/p/x.lfruns"));
        auto resumed = parseCliLine(R"({"event":"resume","run":5,"checkpoint":{"id":12}})");
        QVERIFY(resumed && resumed->type == CliEvent::Type::Run);
        QCOMPARE(resumed->id, qint64(5));
        auto ckpt = parseCliLine(R"({"event":"checkpoint","id":12,"run":5,"step":30,"metrics":{"loss":1}})");
        QVERIFY(ckpt && ckpt->type == CliEvent::Type::Checkpoint);
        QCOMPARE(ckpt->id, qint64(12));
        auto data = parseCliLine(R"({"event":"data","train":60,"classes":["dark","light","mid"],"skipped":[]})");
        QVERIFY(data && data->type == CliEvent::Type::Data);
        QCOMPARE(data->classes, (QStringList{"dark", "light", "mid"}));
        auto result = parseCliLine(R"({"event":"result","status":"early_stopped","message":"","run":7,)"
                                   R"("test":{"loss":0.5},"weights":"/p/x.weights.safetensors"})");
        QVERIFY(result && result->type == CliEvent::Type::Result);
        QCOMPARE(result->status, RunStatus::EarlyStopped);
        QCOMPARE(result->id, qint64(7));
        QCOMPARE(result->path, QString("/p/x.weights.safetensors"));
        auto bad = parseCliLine(R"({"event":"result","status":"exploded","run":7})");
        QCOMPARE(bad->status, RunStatus::Failed);  // an unknown status is no success
        auto error = parseCliLine(R"({"event":"error","kind":"input","message":"x.lfproj: no such file"})");
        QVERIFY(error && error->type == CliEvent::Type::Error);
        QCOMPARE(error->message, QString("x.lfproj: no such file"));
    }

    void garbageAndUnknownObjectsAreSkipped() {
        for (const char* line : {"", "not json", "{\"event\":\"step\"", "[1,2]", "42", "{\"step\":3}", "{\"event\":7}",
                                 "{\"event\":\"data_problems\",\"skipped\":[]}", "{\"event\":\"from_the_future\"}",
                                 "\xff\xfe{\"event\":\"step\"}"})
            QVERIFY2(!parseCliLine(line), line);
    }

    void linesSplitAcrossReadsWaitForTheirEnd() {
        const QByteArray all = "{\"event\":\"run\",\"run\":3}\n" + kStep + "\nWarning: a plugin printed this\n" + kEpochEnd + "\n";
        // Every split point, and one byte at a time: the same three events in the same order.
        for (qsizetype cut = 0; cut <= all.size(); ++cut) {
            CliEventParser p;
            std::vector<CliEvent> got = p.feed(all.left(cut));
            for (CliEvent& e : p.feed(all.mid(cut))) got.push_back(std::move(e));
            QCOMPARE(got.size(), std::size_t(3));
            QCOMPARE(got[0].type, CliEvent::Type::Run);
            QCOMPARE(got[1].train.step, std::int64_t(17));
            QCOMPARE(got[1].rankImagesPerSecond.size(), 2);
            QCOMPARE(got[2].train.kind, EventKind::EpochEnd);
        }
        CliEventParser bytes;
        std::size_t n = 0;
        for (char ch : all) n += bytes.feed(QByteArrayView(&ch, 1)).size();
        QCOMPARE(n, std::size_t(3));
    }

    void aLastLineWithoutNewlineCountsAtTheEnd() {
        CliEventParser p;
        QVERIFY(p.feed(kStep).empty());  // not complete yet
        const auto last = p.finish();
        QCOMPARE(last.size(), std::size_t(1));
        QCOMPARE(last[0].train.step, std::int64_t(17));
        QVERIFY(p.finish().empty());
        CliEventParser cut;
        QVERIFY(cut.feed(kStep.left(40)).empty());
        QVERIFY(cut.finish().empty());  // a line cut off when the process was killed
    }

    void crlfLineEndings() {
        CliEventParser p;
        const auto got = p.feed(kStep + "\r\n" + kEpochEnd + "\r\n");
        QCOMPARE(got.size(), std::size_t(2));
    }
};

QTEST_APPLESS_MAIN(TestCliEventParser)
#include "test_cli_event_parser.moc"
