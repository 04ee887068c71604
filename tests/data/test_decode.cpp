// Decoders against PIL's pixels for tiny committed images of every format and mode; damaged
// bytes are errors with a reason, never a crash; channel conversion, resizing, EXIF orientation.
#include <QtTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "layerforge/data/image.h"
#include "layerforge/data/transform.h"
#include "lf_test_util.h"

namespace {

std::string fixture(const std::string& name) {
    return qEnvironmentVariable("LF_SOURCE_DIR").toStdString() + "/tests/fixtures/images/" + name;
}

lf::Image gradient(int w, int h, int c) {
    lf::Image img;
    img.allocate(w, h, c);
    for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = std::uint8_t((i * 37) % 256);
    return img;
}

}  // namespace

class TestDecode : public QObject {
    Q_OBJECT
private slots:
    void pixels_match_pil_for_every_format() {
        std::ifstream in(fixture("reference.json"));
        QVERIFY(in.good());
        const nlohmann::json ref = nlohmann::json::parse(in);
        QCOMPARE(ref.size(), 15u);
        for (const auto& [name, r] : ref.items()) {
            const lf::Image img = lf::read_image(fixture(name));
            QVERIFY2(img.width == r["width"] && img.height == r["height"], name.c_str());
            QVERIFY2(img.channels == r["channels"], qPrintable(QString::fromStdString(name) + " channels " + QString::number(img.channels)));
            const auto want = r["pixels"].get<std::vector<int>>();
            QCOMPARE(img.pixels.size(), want.size());
            // CMYK -> RGB is a rounding formula; everything else is bit-exact.
            const int tol = name == "cmyk.jpg" ? 1 : 0;
            for (std::size_t i = 0; i < want.size(); ++i)
                QVERIFY2(std::abs(int(img.pixels[i]) - want[i]) <= tol,
                         qPrintable(QString("%1 byte %2: %3 vs PIL %4").arg(name.c_str()).arg(i).arg(img.pixels[i]).arg(want[i])));
        }
    }
    void damaged_bytes_are_errors_with_a_reason() {
        const std::vector<std::uint8_t> png = lf::read_file_bytes(fixture("rgb.png"));
        const std::vector<std::uint8_t> jpg = lf::read_file_bytes(fixture("rgb.jpg"));
        LF_EXPECT_INPUT_ERROR(lf::decode_image(png.data(), 0), "empty");
        const std::string text = "hello, I am not a JPEG";
        LF_EXPECT_INPUT_ERROR(lf::decode_image(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "not an image");
        for (const auto* bytes : {&png, &jpg}) {
            for (std::size_t cut : {std::size_t(4), std::size_t(20), bytes->size() / 2, bytes->size() - 16}) {
                bool threw = false;
                try {
                    lf::decode_image(bytes->data(), cut);
                } catch (const lf::Error& e) {
                    threw = true;
                    QCOMPARE(e.kind(), lf::ErrorKind::Input);
                }
                QVERIFY2(threw, qPrintable(QString("truncated at %1 of %2 bytes decoded").arg(cut).arg(bytes->size())));
            }
        }
        std::vector<std::uint8_t> garbage = png;  // IHDR intact, data replaced
        for (std::size_t i = 40; i < garbage.size(); ++i) garbage[i] = std::uint8_t(i * 91);
        LF_EXPECT_INPUT_ERROR(lf::decode_image(garbage.data(), garbage.size()), "PNG");
        std::vector<std::uint8_t> bmp = lf::read_file_bytes(fixture("rgb.bmp"));
        LF_EXPECT_INPUT_ERROR(lf::decode_image(bmp.data(), bmp.size() - 10), "truncated");
        LF_EXPECT_INPUT_ERROR(lf::read_image(fixture("absent.png")), "absent.png");
    }
    void exif_orientation_makes_pixels_upright() {
        const lf::Image upright = lf::read_image(fixture("exif6.jpg"));
        lf::DecodeOptions raw;
        raw.apply_exif_orientation = false;
        const lf::Image stored = lf::read_image(fixture("exif6.jpg"), raw);
        QCOMPARE(stored.width, 5);
        QCOMPARE(upright.width, 3);  // rotated 90 degrees clockwise
        QCOMPARE(upright.height, 5);
        // Stored (x, y) lands at (H - 1 - y, x).
        for (int y = 0; y < stored.height; ++y)
            for (int x = 0; x < stored.width; ++x)
                for (int c = 0; c < 3; ++c)
                    QCOMPARE(upright.row(x)[(stored.height - 1 - y) * 3 + c], stored.row(y)[x * 3 + c]);
        for (int o = 1; o <= 8; ++o) {  // every orientation is a bijection of the pixels
            lf::Image g = gradient(4, 3, 1), r = lf::apply_orientation(g, o);
            QCOMPARE(r.width * r.height, 12);
            std::sort(g.pixels.begin(), g.pixels.end());
            std::sort(r.pixels.begin(), r.pixels.end());
            QCOMPARE(r.pixels, g.pixels);
        }
    }
    void channel_conversion() {
        lf::Image rgba;
        rgba.allocate(2, 1, 4);
        rgba.pixels = {200, 100, 50, 255, 200, 100, 50, 0};
        const lf::Image dropped = lf::convert_channels(rgba, 3, false, {0, 0, 0});
        QCOMPARE(dropped.pixels, (std::vector<std::uint8_t>{200, 100, 50, 200, 100, 50}));
        const lf::Image blended = lf::convert_channels(rgba, 3, true, {10, 20, 30});
        QCOMPARE(blended.pixels, (std::vector<std::uint8_t>{200, 100, 50, 10, 20, 30}));
        const lf::Image gray = lf::convert_channels(rgba, 1, false, {0, 0, 0});
        QCOMPARE(int(gray.pixels[0]), (200 * 19595 + 100 * 38470 + 50 * 7471 + 0x8000) >> 16);  // PIL's L
        lf::Image g;
        g.allocate(1, 1, 1);
        g.pixels = {77};
        QCOMPARE(lf::convert_channels(g, 3, false, {0, 0, 0}).pixels, (std::vector<std::uint8_t>{77, 77, 77}));
    }
    void resize_modes() {
        lf::Image flat;
        flat.allocate(8, 4, 1);
        std::fill(flat.pixels.begin(), flat.pixels.end(), std::uint8_t(90));
        lf::SampleSpec spec;
        spec.width = 3, spec.height = 3, spec.channels = 1;
        for (auto mode : {lf::ResizeMode::Stretch, lf::ResizeMode::Crop}) {  // constant stays constant
            spec.resize = mode;
            const lf::Image r = lf::resize_image(flat, spec);
            QCOMPARE(r.width, 3);
            QVERIFY(std::all_of(r.pixels.begin(), r.pixels.end(), [](std::uint8_t v) { return v == 90; }));
        }
        spec.resize = lf::ResizeMode::Pad;  // 8x4 fits as 3x2 (rounded), one padded row
        spec.pad_color = {7, 7, 7};
        const lf::Image p = lf::resize_image(flat, spec);
        int padded = int(std::count(p.pixels.begin(), p.pixels.end(), std::uint8_t(7)));
        QCOMPARE(padded, 3);
        // Area downscale by 2 averages 2x2 blocks exactly.
        lf::Image g = gradient(4, 2, 1);
        spec.resize = lf::ResizeMode::Stretch;
        spec.width = 2, spec.height = 1;
        const lf::Image a = lf::resize_image(g, spec);
        for (int x = 0; x < 2; ++x) {
            const int sum = g.row(0)[2 * x] + g.row(0)[2 * x + 1] + g.row(1)[2 * x] + g.row(1)[2 * x + 1];
            QVERIFY(std::abs(int(a.pixels[std::size_t(x)]) - sum / 4.0) <= 0.5);
        }
        // Bilinear upscale of 2 pixels to 4: pixel centres interpolate, edges clamp.
        lf::Image two;
        two.allocate(2, 1, 1);
        two.pixels = {0, 200};
        spec.width = 4, spec.height = 1;
        QCOMPARE(lf::resize_image(two, spec).pixels, (std::vector<std::uint8_t>{0, 50, 150, 200}));
    }
    void jpeg_dct_scaling_keeps_enough_pixels() {
        const std::vector<std::uint8_t> jpg = lf::read_file_bytes(fixture("scaled.jpg"));  // 64 x 48
        auto decode_at = [&](double scale) {
            lf::DecodeOptions o;
            o.min_scale = [scale](int w, int h) { return w == 64 && h == 48 ? scale : -1.0; };
            return lf::decode_image(jpg.data(), jpg.size(), o);
        };
        QCOMPARE(decode_at(1).width, 64);
        QCOMPARE(decode_at(0.5).width, 32);
        QCOMPARE(decode_at(0.3).width, 24);  // 3/8: the smallest factor not below 0.3
        const lf::Image q = decode_at(0.25);
        QCOMPARE(q.width, 16);
        QCOMPARE(q.height, 12);
        // load_sample asks for the scale of the final resize: 16x12 from 1/4, then no resample.
        lf::SampleSpec spec;
        spec.width = 16, spec.height = 12, spec.channels = 3;
        const lf::Image s = lf::load_sample(jpg.data(), jpg.size(), spec);
        QCOMPARE(s.pixels, q.pixels);
        const lf::Image full = decode_at(1);  // and the DCT-scaled image is close to an area resize
        const lf::Image area = lf::resize_image(full, spec);
        double diff = 0;
        for (std::size_t i = 0; i < area.pixels.size(); ++i) diff += std::abs(int(area.pixels[i]) - int(s.pixels[i]));
        QVERIFY2(diff / double(area.pixels.size()) < 4, qPrintable(QString::number(diff / double(area.pixels.size()))));
    }
};

QTEST_APPLESS_MAIN(TestDecode)
#include "test_decode.moc"
