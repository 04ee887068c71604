// TensorBoard event files from the format's spec, independently of TensorFlow: CRC-32C check
// values (RFC 3720's), TFRecord's masked CRC, an Event built byte by byte from event.proto's
// field numbers, TF2's tensor scalars, damaged, truncated and foreign files, the writer's file
// name and first event, Keras' train/validation layout and a resumed run's SessionLog START.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <regex>

#include "layerforge/core/error.h"
#include "layerforge/tensorboard/crc32c.h"
#include "layerforge/tensorboard/event.h"
#include "layerforge/tensorboard/event_file.h"
#include "layerforge/tensorboard/log_folder.h"
#include "layerforge/tensorboard/metric_tags.h"
#include "layerforge/tensorboard/tfrecord.h"

using namespace lf;
using namespace lf::tensorboard;
namespace fs = std::filesystem;

namespace {

std::string bytes(std::initializer_list<int> b) {
    std::string s;
    for (int v : b) s.push_back(char(v));
    return s;
}

std::string le32(std::uint32_t v) { return bytes({int(v & 0xff), int(v >> 8 & 0xff), int(v >> 16 & 0xff), int(v >> 24)}); }

// event.proto by hand: wall_time 1.5 (field 1, fixed64), step 7 (field 2, varint), summary
// (field 5) with one value: tag "loss" (field 1), simple_value 0.25f (field 2, fixed32).
const std::string kLossEvent = bytes({0x09, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F,  // 1.5 as a little-endian double
                                      0x10, 0x07,                          // step 7
                                      0x2A, 0x0D,                          // summary, 13 bytes
                                      0x0A, 0x0B,                          // value, 11 bytes
                                      0x0A, 0x04, 'l', 'o', 's', 's',      // tag
                                      0x15, 0x00, 0x00, 0x80, 0x3E});      // 0.25f

// The TFRecord framing written out from the spec, not by append_record.
std::string frame(const std::string& data) {
    std::string len;
    for (int i = 0; i < 8; ++i) len.push_back(char((std::uint64_t(data.size()) >> (8 * i)) & 0xff));
    const auto mask = [](std::uint32_t c) { return ((c >> 15) | (c << 17)) + 0xa282ead8u; };
    return len + le32(mask(crc32c(len))) + data + le32(mask(crc32c(data)));
}

void write(const fs::path& p, const std::string& data) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << data;
}

struct Read {
    std::vector<Event> events;
    std::optional<Damage> damage;
};

Read read(const fs::path& p) {
    Read r;
    r.damage = read_event_file(p.string(), [&](const Event& e) { r.events.push_back(e); });
    return r;
}

Event scalar_event(std::int64_t step, const std::string& tag, double v) {
    Event e;
    e.wall_time = 1000.0 + double(step);
    e.step = step;
    e.scalars.push_back({tag, v});
    return e;
}

std::string encoded(const Event& e) {
    std::string s;
    encode_event(e, s);
    return s;
}

}  // namespace

class TestTensorBoardFormat : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    fs::path dir() const { return tmp_.path().toStdString(); }

private slots:
    void crc32c_check_values() {
        QCOMPARE(crc32c("123456789"), 0xE3069283u);  // the catalogue's check value
        QCOMPARE(crc32c(""), 0u);
        // RFC 3720 B.4: 32 bytes of zeros, of ones, ascending and descending
        QCOMPARE(crc32c(std::string(32, '\0')), 0x8A9136AAu);
        QCOMPARE(crc32c(std::string(32, '\xff')), 0x62A8AB43u);
        std::string up, down;
        for (int i = 0; i < 32; ++i) up.push_back(char(i)), down.push_back(char(31 - i));
        QCOMPARE(crc32c(up), 0x46DD794Eu);
        QCOMPARE(crc32c(down), 0x113FDB5Cu);
    }

    void masked_crc() {
        // ((c >> 15) | (c << 17)) + 0xa282ead8, worked out by hand for the check value
        QCOMPARE(mask_crc(0xE3069283u), 0xC78AB0E5u);
        QCOMPARE(mask_crc(0), 0xa282ead8u);
        QCOMPARE(masked_crc32c("123456789"), 0xC78AB0E5u);
    }

    void hand_built_record_round_trip() {
        Event e;
        decode_event(kLossEvent, e);
        QCOMPARE(e.wall_time, 1.5);
        QCOMPARE(e.step, std::int64_t(7));
        QCOMPARE(e.scalars.size(), std::size_t(1));
        QCOMPARE(e.scalars[0].tag, std::string("loss"));
        QCOMPARE(e.scalars[0].value, 0.25);
        QVERIFY(!e.session_status);
        QCOMPARE(encoded(e), kLossEvent);  // the encoder writes the same bytes

        std::string framed;
        append_record(framed, kLossEvent);
        QCOMPARE(framed, frame(kLossEvent));
        const std::string two = framed + frame("x");
        RecordReader r(two);
        QCOMPARE(std::string(*r.next()), kLossEvent);
        QCOMPARE(r.offset(), std::uint64_t(16 + kLossEvent.size()));
        QCOMPARE(std::string(*r.next()), std::string("x"));
        QVERIFY(!r.next());
        QVERIFY(r.error().empty());
    }

    void session_log_and_file_version() {
        Event e;
        e.file_version = "brain.Event:2";
        e.wall_time = 2.0;
        decode_event(encoded(e), e);
        QCOMPARE(e.file_version, std::string("brain.Event:2"));
        // session_log (field 6) with status START (field 1 = 1), at step 300
        decode_event(bytes({0x10, 0xAC, 0x02, 0x32, 0x02, 0x08, 0x01}), e);
        QCOMPARE(e.step, std::int64_t(300));
        QVERIFY(e.session_status == SessionStatus::Start);
        Event start;
        start.step = 300;
        start.session_status = SessionStatus::Start;
        Event back;
        decode_event(encoded(start), back);
        QVERIFY(back.session_status == SessionStatus::Start);
        QCOMPARE(back.step, std::int64_t(300));
    }

    void tf2_tensor_scalars() {
        // Summary.Value {tag "acc", tensor (8) {dtype DT_FLOAT (1), tensor_shape {} (2), float_val packed (5)}}
        const std::string tensor_f = bytes({0x08, 0x01, 0x12, 0x00, 0x2A, 0x04, 0x00, 0x00, 0x40, 0x3F});  // 0.75f
        const std::string value_f = bytes({0x0A, 0x03, 'a', 'c', 'c', 0x42, int(tensor_f.size())}) + tensor_f;
        // DT_DOUBLE (2) in tensor_content (4): 0.125
        const std::string tensor_d = bytes({0x08, 0x02, 0x22, 0x08, 0, 0, 0, 0, 0, 0, 0xC0, 0x3F});
        const std::string value_d = bytes({0x0A, 0x02, 'l', 'r', 0x42, int(tensor_d.size())}) + tensor_d;
        // A histogram-like tensor: shape with a dim (2 {2 {1 3}}), three floats; not a scalar
        const std::string tensor_h = bytes({0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03, 0x2A, 0x0C, 0, 0, 0, 0,
                                            0, 0, 0x80, 0x3F, 0, 0, 0, 0x40});
        const std::string value_h = bytes({0x0A, 0x01, 'h', 0x42, int(tensor_h.size())}) + tensor_h;
        std::string summary;
        for (const std::string& v : {value_f, value_d, value_h}) summary += bytes({0x0A, int(v.size())}) + v;
        const std::string event = bytes({0x10, 0x03, 0x2A, int(summary.size())}) + summary;
        Event e;
        decode_event(event, e);
        QCOMPARE(e.scalars.size(), std::size_t(2));
        QCOMPARE(e.scalars[0].tag, std::string("acc"));
        QCOMPARE(e.scalars[0].value, 0.75);
        QCOMPARE(e.scalars[1].tag, std::string("lr"));
        QCOMPARE(e.scalars[1].value, 0.125);
    }

    void malformed_protobuf_is_an_input_error() {
        Event e;
        for (const std::string& bad : {bytes({0x0F}),                    // wire type 7
                                       bytes({0x09, 0x00, 0x00}),        // a double cut short
                                       bytes({0x2A, 0x10, 0x0A}),        // a summary longer than the event
                                       bytes({0x10, 0xFF, 0xFF, 0xFF}),  // a varint cut off
                                       bytes({0x15, 0, 0, 0, 0})}) {     // step (2) as fixed32
            try {
                decode_event(bad, e);
                QFAIL("malformed bytes were accepted");
            } catch (const Error& err) {
                QVERIFY2(std::string(err.what()).find("malformed") != std::string::npos, err.what());
            }
        }
    }

    void writer_names_the_file_and_writes_the_version_first() {
        const fs::path folder = dir() / "writer" / "run-1" / "train";
        std::string first, second;
        {
            EventFileWriter w(folder.string());
            EventFileWriter other(folder.string());
            first = w.path();
            second = other.path();
            w.add_scalar("batch_loss", 1, 100.0, 2.5);
            w.add_scalar("batch_loss", 2, 101.0, 1.5);
            // nothing but the version record before flush(): a reader never sees half a record
            QCOMPARE(read(first).events.size(), std::size_t(1));
            w.flush();
        }
        QVERIFY(first != second);
        const std::string name = fs::path(first).filename().string();
        QVERIFY2(std::regex_match(name, std::regex(R"(events\.out\.tfevents\.\d{10}\..+\.\d+\.\d+)")), name.c_str());
        QVERIFY(is_event_file_name(name));
        const Read r = read(first);
        QVERIFY(!r.damage);
        QCOMPARE(r.events.size(), std::size_t(3));
        QCOMPARE(r.events[0].file_version, std::string("brain.Event:2"));
        QCOMPARE(r.events[2].step, std::int64_t(2));
        QCOMPARE(r.events[2].wall_time, 101.0);
        QCOMPARE(r.events[2].scalars[0].value, 1.5);
    }

    void unwritable_folder_names_it() {
        write(dir() / "plain_file", "x");
        try {
            EventFileWriter w((dir() / "plain_file" / "run").string());
            QFAIL("a folder under a file was accepted");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("plain_file") != std::string::npos, e.what());
        }
    }

    void damaged_files_keep_what_comes_before() {
        std::string good;
        for (int s = 1; s <= 3; ++s) append_record(good, encoded(scalar_event(s, "loss", s)));
        const std::uint64_t third = 2 * (16 + encoded(scalar_event(1, "loss", 1)).size());

        std::string bad_crc = good;
        bad_crc[third + 14] ^= 0x40;  // a byte of the third record's data
        write(dir() / "dmg" / "events.out.tfevents.1.crc", bad_crc);
        Read r = read(dir() / "dmg" / "events.out.tfevents.1.crc");
        QCOMPARE(r.events.size(), std::size_t(2));
        QVERIFY(r.damage);
        QCOMPARE(r.damage->offset, third);
        QVERIFY2(r.damage->what.find("CRC") != std::string::npos, r.damage->what.c_str());
        QVERIFY2(r.damage->text().find("events.out.tfevents.1.crc") != std::string::npos, r.damage->text().c_str());
        QVERIFY2(r.damage->text().find("at byte " + std::to_string(third)) != std::string::npos,
                 r.damage->text().c_str());

        write(dir() / "dmg" / "events.out.tfevents.2.cut", good.substr(0, good.size() - 5));
        r = read(dir() / "dmg" / "events.out.tfevents.2.cut");
        QCOMPARE(r.events.size(), std::size_t(2));
        QCOMPARE(r.damage->offset, third);
        QVERIFY2(r.damage->what.find("truncated") != std::string::npos, r.damage->what.c_str());

        write(dir() / "dmg" / "events.out.tfevents.3.header", good + good.substr(0, 7));
        r = read(dir() / "dmg" / "events.out.tfevents.3.header");
        QCOMPARE(r.events.size(), std::size_t(3));
        QCOMPARE(r.damage->offset, std::uint64_t(good.size()));

        // framing intact, the data no Event
        std::string bad_proto = good;
        append_record(bad_proto, bytes({0x0F, 0x01}));
        write(dir() / "dmg" / "events.out.tfevents.4.proto", bad_proto);
        r = read(dir() / "dmg" / "events.out.tfevents.4.proto");
        QCOMPARE(r.events.size(), std::size_t(3));
        QCOMPARE(r.damage->offset, std::uint64_t(good.size()));
        QVERIFY2(r.damage->what.find("malformed event") != std::string::npos, r.damage->what.c_str());
    }

    void foreign_files_say_so() {
        write(dir() / "foreign" / "events.out.tfevents.notes", "These are my notes, not TensorBoard's.\n");
        Read r = read(dir() / "foreign" / "events.out.tfevents.notes");
        QVERIFY(r.events.empty());
        QCOMPARE(r.damage->offset, std::uint64_t(0));
        QVERIFY2(r.damage->what.find("not a TensorBoard event file") != std::string::npos, r.damage->what.c_str());
        // a folder of them: reported, nothing imported, no exception
        write(dir() / "foreign" / "empty" / "events.out.tfevents.0", "");
        const LogFolder f = read_log_folder((dir() / "foreign").string());
        QCOMPARE(f.damage.size(), std::size_t(2));
        for (const Damage& d : f.damage) QVERIFY2(!d.what.empty() && !d.file.empty(), d.text().c_str());
        QCOMPARE(f.runs.size(), std::size_t(2));
        for (const LogRun& run : f.runs) QCOMPARE(run.points(), std::size_t(0));
        try {
            read_log_folder((dir() / "no such folder").string());
            QFAIL("a missing folder was accepted");
        } catch (const Error& e) {
            QVERIFY(e.kind() == ErrorKind::Input);
            QVERIFY2(std::string(e.what()).find("no such folder") != std::string::npos, e.what());
        }
    }

    void keras_layout_is_one_run_and_start_drops_the_redone_tail() {
        const fs::path run = dir() / "logs" / "fit" / "20240501-120000";
        std::string train1, train2, val;
        append_record(train1, encoded(Event{1.0, 0, "brain.Event:2", {}, {}}));
        for (int s = 1; s <= 10; ++s) append_record(train1, encoded(scalar_event(s, "batch_loss", 10 - s)));
        Event start;
        start.step = 6;
        start.session_status = SessionStatus::Start;
        append_record(train2, encoded(start));
        for (int s = 6; s <= 8; ++s) append_record(train2, encoded(scalar_event(s, "batch_loss", 100 + s)));
        append_record(val, encoded(scalar_event(5, "epoch_loss", 0.5)));
        write(run / "train" / "events.out.tfevents.1714564800.host.1.0", train1);
        write(run / "train" / "events.out.tfevents.1714564900.host.2.0", train2);
        write(run / "validation" / "events.out.tfevents.1714564800.host.1.1", val);
        write(dir() / "logs" / "other" / "events.out.tfevents.1.h.1.0", train1);

        const LogFolder f = read_log_folder((dir() / "logs").string());
        QVERIFY(f.damage.empty());
        QCOMPARE(f.runs.size(), std::size_t(2));
        const LogRun& r = f.runs[0];
        QCOMPARE(r.name, std::string("fit/20240501-120000"));
        QCOMPARE(r.path, fs::weakly_canonical(run).string());
        QCOMPARE(r.parts.size(), std::size_t(2));
        const std::vector<ScalarPoint>& loss = r.parts.at("train").at("batch_loss");
        QCOMPARE(loss.size(), std::size_t(8));  // 1..5, then 6..8 of the resumed session
        for (std::size_t i = 0; i < loss.size(); ++i) {
            QCOMPARE(loss[i].step, std::int64_t(i + 1));
            QCOMPARE(loss[i].value, i < 5 ? double(9 - i) : double(100 + i + 1));
        }
        QCOMPARE(r.parts.at("validation").at("epoch_loss").size(), std::size_t(1));
        QCOMPARE(f.runs[1].name, std::string("other"));
        QVERIFY(f.runs[1].parts.count(""));
    }

    void tags_map_to_splits_and_epochs() {
        // Layerforge's own: epoch_* at the optimizer step the epoch ended (4 steps per epoch)
        LogRun ours;
        for (int s = 1; s <= 9; ++s) ours.parts["train"]["batch_loss"].push_back({s, 0, double(s)});
        for (int s : {4, 8}) {
            ours.parts["train"]["epoch_loss"].push_back({s, 0, 1.0});
            ours.parts["train"]["epoch_learning_rate"].push_back({s, 0, 0.01});
            ours.parts["validation"]["epoch_accuracy"].push_back({s, 0, 0.9});
        }
        ours.parts["train"]["test_loss"].push_back({8, 0, 0.7});
        ours.parts["train"]["my_custom"].push_back({3, 0, 3.0});
        std::map<std::string, std::vector<MetricRow>> by;
        for (const MetricRow& m : rows_from_log(ours, 5)) {
            QCOMPARE(m.run, std::int64_t(5));
            by[m.split + "/" + m.name].push_back(m);
        }
        QCOMPARE(by["train/loss"].size(), std::size_t(9));
        for (const MetricRow& m : by["train/loss"]) QCOMPARE(m.epoch, m.step <= 4 ? 1 : m.step <= 8 ? 2 : 3);
        QCOMPARE(by["epoch/loss"].size(), std::size_t(2));
        QCOMPARE(by["epoch/loss"][1].epoch, std::int64_t(2));
        QCOMPARE(by["epoch/loss"][1].step, std::int64_t(8));
        QCOMPARE(by["epoch/lr"].size(), std::size_t(2));
        QCOMPARE(by["val/accuracy"][0].epoch, std::int64_t(1));
        QCOMPARE(by["test/loss"][0].epoch, std::int64_t(0));
        QCOMPARE(by["train/my_custom"][0].epoch, std::int64_t(1));
        QCOMPARE(slot_for("train", "lr").tag, std::string("batch_learning_rate"));
        QCOMPARE(slot_for("val", "loss").part, std::string("validation"));
        QCOMPARE(slot_for("epoch", "accuracy").tag, std::string("epoch_accuracy"));

        // Keras' own: epoch_* at the epoch's index, batch_* at the global batch
        LogRun keras;
        for (int k = 0; k < 3; ++k) {
            keras.parts["train"]["epoch_loss"].push_back({k, 0, 1.0 / (k + 1)});
            keras.parts["validation"]["epoch_loss"].push_back({k, 0, 2.0 / (k + 1)});
        }
        for (int s = 1; s <= 30; ++s) keras.parts["train"]["batch_loss"].push_back({s, 0, 1.0});
        by.clear();
        for (const MetricRow& m : rows_from_log(keras, 1)) by[m.split + "/" + m.name].push_back(m);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(by["epoch/loss"][k].epoch, std::int64_t(k + 1));
            QCOMPARE(by["val/loss"][k].epoch, std::int64_t(k + 1));
            QCOMPARE(by["val/loss"][k].step, std::int64_t(10 * (k + 1)));
        }
        QCOMPARE(by["train/loss"][0].epoch, std::int64_t(1));
        QCOMPARE(by["train/loss"][14].epoch, std::int64_t(2));  // step 15
        QCOMPARE(by["train/loss"][29].epoch, std::int64_t(3));
    }
};

QTEST_GUILESS_MAIN(TestTensorBoardFormat)
#include "test_tensorboard_format.moc"
