// Caps against hostile input (core/limits.h): each file that declares too much is refused with an
// lf::Error (Input) naming the file and the field, before anything large is allocated.
#include <QTemporaryDir>
#include <QtTest>
#include <cstdint>
#include <string>

#include "layerforge/core/limits.h"
#include "layerforge/data/dataset.h"
#include "layerforge/project/keras_import.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"
#include "lf_test_util.h"

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A safetensors buffer with the given header JSON and `data_bytes` zero bytes of data.
std::string safetensors(const std::string& header, std::size_t data_bytes) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((header.size() >> (8 * i)) & 0xff);
    return out + header + std::string(data_bytes, '\0');
}

std::string project_with(const std::string& nodes, const std::string& edges) {
    return "{\"version\": 1, \"model\": {\"nodes\": " + nodes + ", \"edges\": " + edges + "}}";
}

std::string repeat(const std::string& item, std::size_t n) {
    std::string s = "[";
    for (std::size_t i = 0; i < n; ++i) s += (i ? "," : "") + item;
    return s + "]";
}

QByteArray be32(std::uint32_t v) {
    QByteArray b(4, 0);
    for (int i = 0; i < 4; ++i) b[i] = char(v >> (24 - 8 * i));
    return b;
}

}  // namespace

class TestInputLimits : public QObject {
    Q_OBJECT

private slots:
    void jsonDepthCountsBracketsOutsideStrings() {
        lf::check_json_depth(nested(lf::kMaxJsonDepth), "ok.json");
        lf::check_json_depth("[\"" + std::string(1000, '[') + "\"]", "in-string.json");  // brackets in a string
        lf::check_json_depth("[\"\\\"[[[[\", 1]", "escaped-quote.json", 2);
        LF_EXPECT_INPUT_ERROR(lf::check_json_depth(nested(lf::kMaxJsonDepth + 1), "deep.json"), "deep.json",
                              "deeper than 128");
    }

    void projectRefusesDeepNesting() {
        LF_EXPECT_INPUT_ERROR(lf::parse_project("{\"model\": " + nested(100000) + "}", "hostile.lfproj"),
                              "hostile.lfproj", "nests deeper");
    }

    void kerasImportRefusesDeepNesting() {
        LF_EXPECT_INPUT_ERROR(lf::import_keras_model(nested(100000), "model.json"), "model.json", "nests deeper");
    }

    void projectRefusesTooManyNodes() {
        const std::string node = "{\"id\": \"n\", \"type\": \"Dense\", \"name\": \"n\", \"params\": {}, \"position\": [0, 0]}";
        LF_EXPECT_INPUT_ERROR(lf::parse_project(project_with(repeat(node, lf::kMaxGraphNodes + 1), "[]"), "big.lfproj"),
                              "big.lfproj", "model.nodes", "10001 nodes exceed the limit of 10000");
    }

    void projectRefusesTooManyEdges() {
        const std::string edge = "{\"from\": \"a:0\", \"to\": \"b:0\"}";
        LF_EXPECT_INPUT_ERROR(lf::parse_project(project_with("[]", repeat(edge, lf::kMaxGraphEdges + 1)), "big.lfproj"),
                              "big.lfproj", "model.edges", "40001 edges exceed the limit of 40000");
    }

    void kerasImportRefusesTooManyLayers() {
        const std::string layers = repeat("{\"class_name\": \"Dense\", \"config\": {\"units\": 1}}", lf::kMaxGraphNodes + 1);
        LF_EXPECT_INPUT_ERROR(
            lf::import_keras_model("{\"class_name\": \"Sequential\", \"config\": {\"layers\": " + layers + "}}", "k.json"),
            "k.json", "config.layers", "10001 layers");
    }

    void safetensorsShapeMustMatchBytes() {
        const std::string ok = safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 24]}}", 24);
        QCOMPARE(lf::parse_safetensors(ok, "ok").tensors.at("w").bytes, std::size_t(24));
        const std::string lying =
            safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [4000, 3000], \"data_offsets\": [0, 24]}}", 24);
        LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(lying, "ckpt 7"), "ckpt 7", "tensor 'w'", "(4000, 3000)", "48000000 bytes of F32",
                              "holds 24 bytes");
    }

    void safetensorsRefusesNegativeAndOverflowingShapes() {
        const std::string negative = safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [-2, -3], \"data_offsets\": [0, 24]}}", 24);
        LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(negative, "neg.safetensors"), "neg.safetensors", "tensor 'w'", "negative");
        const std::string overflow = safetensors(
            "{\"w\": {\"dtype\": \"U8\", \"shape\": [4294967296, 4294967296, 4294967296], \"data_offsets\": [0, 8]}}", 8);
        LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(overflow, "big.safetensors"), "big.safetensors", "larger than");
    }

    void safetensorsRefusesNumbersThatAreNotIntegers() {
        // Found by the fuzzer: a float offset out of uint64's range was converted with undefined behaviour.
        const std::string offsets[] = {"[0, 7.8e43]", "[0, 24.0]", "[-8, 24]", "[0, \"24\"]", "24"};
        for (const std::string& off : offsets) {
            const std::string s = safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": " + off + "}}", 24);
            LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(s, "f.safetensors"), "f.safetensors", "tensor 'w'");
        }
        for (const char* shape : {"[2, 3.0]", "[1e30]", "[18446744073709551615]", "6"}) {
            const std::string s = safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": " + std::string(shape) +
                                              ", \"data_offsets\": [0, 24]}}", 24);
            LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(s, "s.safetensors"), "s.safetensors", "tensor 'w'");
        }
    }

    void safetensorsRefusesDeepHeader() {
        LF_EXPECT_INPUT_ERROR(lf::parse_safetensors(safetensors(nested(100000), 0), "deep.safetensors"),
                              "deep.safetensors", "nests deeper");
    }

    void idxRefusesHeaderLargerThanFile() {
        QTemporaryDir dir;
        const QString images = dir.filePath("images-idx3-ubyte"), labels = dir.filePath("labels-idx1-ubyte");
        // 60000 images of 16384 x 16384 declared, 16 bytes present: refused before reading or allocating.
        QVERIFY(writeFile(images, be32(0x803) + be32(60000) + be32(16384) + be32(16384) + QByteArray(16, 0)));
        QVERIFY(writeFile(labels, be32(0x801) + be32(60000) + QByteArray(60000, 0)));
        LF_EXPECT_INPUT_ERROR(lf::read_idx_pair(images.toStdString(), labels.toStdString()), "images-idx3-ubyte",
                              "declares 16106127360000 bytes of image data", "holds 16", "truncated");
        // The labels file is checked the same way.
        QVERIFY(writeFile(images, be32(0x803) + be32(3) + be32(2) + be32(2) + QByteArray(12, 0)));
        QVERIFY(writeFile(labels, be32(0x801) + be32(3) + QByteArray(1, 0)));
        LF_EXPECT_INPUT_ERROR(lf::read_idx_pair(images.toStdString(), labels.toStdString()), "labels-idx1-ubyte",
                              "declares 3 bytes of label data", "holds 1");
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "test_input_limits.moc"
