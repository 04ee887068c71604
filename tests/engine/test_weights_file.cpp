// Weights in the safetensors layout: round trip, and damaged or mismatched files rejected by name.
#include <QtTest>

#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/store/weights_file.h"
#include "lf_test_util.h"

using lf::IntList;

namespace {

lf::Graph small(std::int64_t units) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", IntList{3}}});
    b.add("Dense", {{"units", units}}, {in});
    return b.graph;
}

}  // namespace

class TestWeightsFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void round_trip_is_exact() {
        lf::Model a(small(4)), b(small(4));
        a.init_weights(1);
        b.init_weights(2);
        QVERIFY(a.weights() != b.weights());
        std::string path = dir_.filePath("w.safetensors").toStdString();
        lf::save_weights(a, path, {{"project", "p"}});
        lf::load_weights(b, path);
        QCOMPARE(a.weights(), b.weights());
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
    }
    void layout_is_safetensors() {
        lf::Model a(small(2));
        a.init_weights(1);
        std::string bytes = lf::encode_weights(a, {{"k", "v"}});
        std::uint64_t n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | std::uint8_t(bytes[std::size_t(i)]);
        QCOMPARE(n % 8, 0u);
        QCOMPARE(bytes.size(), 8 + n + (3 * 2 + 2) * sizeof(float));
        QString header = QString::fromStdString(bytes.substr(8, n));
        QVERIFY(header.contains("\"dense_1/kernel\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[0,24]}"));
        QVERIFY(header.contains("\"__metadata__\":{\"k\":\"v\"}"));
    }
    void mismatches_and_damage_are_named() {
        lf::Model a(small(4)), other(small(5));
        a.init_weights(1);
        std::string bytes = lf::encode_weights(a);
        LF_EXPECT_INPUT_ERROR(lf::decode_weights(other, bytes, "w.st"), "w.st", "dense_1/kernel", "shape (3, 4) but the model needs (3, 5)");
        LF_EXPECT_INPUT_ERROR(lf::decode_weights(a, bytes.substr(0, 5), "w.st"), "w.st", "too short");
        LF_EXPECT_INPUT_ERROR(lf::decode_weights(a, bytes.substr(0, 40), "w.st"), "w.st", "truncated");
        std::string short_data = bytes.substr(0, bytes.size() - 4);
        LF_EXPECT_INPUT_ERROR(lf::decode_weights(a, short_data, "w.st"), "dense_1/bias", "damaged");
        LF_EXPECT_INPUT_ERROR(lf::load_weights(a, dir_.filePath("absent").toStdString()), "absent", "not found");
    }
};

QTEST_APPLESS_MAIN(TestWeightsFile)
#include "test_weights_file.moc"
