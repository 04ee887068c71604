// The bfloat16 safetensors export (ExportOptions::dtype, `export --dtype bfloat16`): the header
// says "BF16", the data is each float32 weight rounded to nearest even (half the bytes), the
// project's reader loads it back widened, and the other formats refuse the option.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

#include "export_fixtures.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/export/export.h"
#include "layerforge/store/weights_file.h"

namespace {

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
float from_bits(std::uint32_t u) { return std::bit_cast<float>(u); }

}  // namespace

class TestExportBfloat16 : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rounds_to_nearest_even() {
        QCOMPARE(lf::to_bfloat16(1.0f), std::uint16_t(0x3f80));
        QCOMPARE(lf::to_bfloat16(-2.0f), std::uint16_t(0xc000));
        // Exactly half way between two bfloat16 values: to the even one, down and up.
        QCOMPARE(lf::to_bfloat16(from_bits(0x3f808000)), std::uint16_t(0x3f80));
        QCOMPARE(lf::to_bfloat16(from_bits(0x3f818000)), std::uint16_t(0x3f82));
        // Just above and below half way: to the nearest.
        QCOMPARE(lf::to_bfloat16(from_bits(0x3f808001)), std::uint16_t(0x3f81));
        QCOMPARE(lf::to_bfloat16(from_bits(0x3f807fff)), std::uint16_t(0x3f80));
        // Overflow to infinity, infinities and signed zeros kept, a NaN stays a NaN (even one whose
        // payload sits only in the low bits, which truncation would turn into infinity).
        QCOMPARE(lf::to_bfloat16(std::numeric_limits<float>::max()), std::uint16_t(0x7f80));
        QCOMPARE(lf::to_bfloat16(-std::numeric_limits<float>::infinity()), std::uint16_t(0xff80));
        QCOMPARE(lf::to_bfloat16(-0.0f), std::uint16_t(0x8000));
        QVERIFY(std::isnan(lf::from_bfloat16(lf::to_bfloat16(from_bits(0x7f800001)))));
        QVERIFY(std::isnan(lf::from_bfloat16(lf::to_bfloat16(std::numeric_limits<float>::quiet_NaN()))));
        // Widening is exact: every bfloat16 value converts back to itself.
        for (std::uint32_t b = 0; b < 0x10000; ++b) {
            const float f = lf::from_bfloat16(std::uint16_t(b));
            if (!std::isnan(f)) QCOMPARE(lf::to_bfloat16(f), std::uint16_t(b));
        }
        QCOMPARE(bits(lf::from_bfloat16(0x3f81)), 0x3f810000u);
    }

    void safetensors_export_writes_bf16_and_reads_back() {
        lf::Model m(export_test::cnn());
        export_test::randomize(m, 7);
        m.weights()[0] = from_bits(0x3f808000);  // a tie: rounds down to 1.0
        QTemporaryDir dir;
        lf::ExportOptions o;
        o.format = lf::ExportFormat::Safetensors;
        const auto f32 = lf::export_model(m, {}, o, dir.filePath("f32").toStdString());
        o.dtype = lf::DType::BFloat16;
        const auto bf16 = lf::export_model(m, {}, o, dir.filePath("bf16").toStdString());
        const std::string f32_bytes = lf::read_file(f32[0], "export", 1 << 30);
        const std::string bytes = lf::read_file(bf16[0], "export", 1 << 30);
        const lf::SafetensorsView v = lf::parse_safetensors(bytes, bf16[0]);
        QVERIFY(v.metadata.count("graph"));  // the graph travels as with float32
        std::size_t data = 0;
        for (const lf::WeightRef& w : m.weight_refs()) {
            const auto& t = v.tensors.at(w.name);
            QCOMPARE(t.dtype, std::string("BF16"));
            QCOMPARE(t.shape, w.shape.dims);
            QCOMPARE(t.bytes, w.size * 2);
            data += t.bytes;
            for (std::size_t i = 0; i < w.size; ++i) {  // little-endian bfloat16 of each weight
                std::uint16_t stored;
                std::memcpy(&stored, t.data + 2 * i, 2);
                QCOMPARE(stored, lf::to_bfloat16(m.weights()[w.offset + i]));
            }
        }
        QCOMPARE(data, m.weights().size() * 2);
        QVERIFY(bytes.size() < f32_bytes.size());
        QCOMPARE(lf::parse_safetensors(f32_bytes, f32[0]).tensors.begin()->second.dtype, std::string("F32"));

        // The project's reader widens it: every weight is its bfloat16 rounding, exactly.
        lf::Model back(export_test::cnn());
        lf::load_weights(back, bf16[0]);
        for (std::size_t i = 0; i < m.weights().size(); ++i)
            QCOMPARE(bits(back.weights()[i]), bits(lf::from_bfloat16(lf::to_bfloat16(m.weights()[i]))));
        QCOMPARE(back.weights()[0], 1.0f);
    }

    void other_formats_refuse_bf16_before_writing() {
        lf::Model m(export_test::mlp());
        export_test::randomize(m, 3);
        QTemporaryDir dir;
        for (lf::ExportFormat f : {lf::ExportFormat::Onnx, lf::ExportFormat::PyTorch, lf::ExportFormat::Keras}) {
            lf::ExportOptions o;
            o.format = f;
            o.dtype = lf::DType::BFloat16;
            const std::string out = dir.filePath(lf::to_string(f)).toStdString();
            LF_EXPECT_INPUT_ERROR(lf::export_model(m, {}, o, out), "safetensors export only");
            QVERIFY(!QFileInfo::exists(QString::fromStdString(out)));
        }
        QCOMPARE(lf::parse_export_dtype("bfloat16"), lf::DType::BFloat16);
        LF_EXPECT_INPUT_ERROR(lf::parse_export_dtype("bf16"), "choose float32 or bfloat16");
    }
};

QTEST_MAIN(TestExportBfloat16)
#include "test_export_bfloat16.moc"
