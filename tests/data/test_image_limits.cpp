// Decompression bombs: headers that declare more pixels than the 2^28 cap, or more samples than
// the bytes can hold, are refused by every decoder before the image is allocated.
#include <zlib.h>

#include <QtTest>
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/data/image.h"
#include "lf_test_util.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

void put_be32(Bytes& b, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t(v >> s));
}
void put_le16(Bytes& b, unsigned v) { b.insert(b.end(), {std::uint8_t(v), std::uint8_t(v >> 8)}); }
void put_le32(Bytes& b, std::uint32_t v) {
    for (int s = 0; s < 32; s += 8) b.push_back(std::uint8_t(v >> s));
}

void put_png_chunk(Bytes& b, const char* type, const Bytes& data) {
    Bytes chunk(type, type + 4);
    chunk.insert(chunk.end(), data.begin(), data.end());
    put_be32(b, std::uint32_t(data.size()));
    b.insert(b.end(), chunk.begin(), chunk.end());
    put_be32(b, std::uint32_t(crc32(0, chunk.data(), uInt(chunk.size()))));
}

Bytes png_header(std::uint32_t w, std::uint32_t h) {  // IHDR, a small IDAT, IEND
    Bytes b{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, ihdr;
    put_be32(ihdr, w);
    put_be32(ihdr, h);
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB
    put_png_chunk(b, "IHDR", ihdr);
    Bytes zeros(64, 0), idat(128);
    uLongf n = idat.size();
    compress(idat.data(), &n, zeros.data(), zeros.size());
    idat.resize(n);
    put_png_chunk(b, "IDAT", idat);
    put_png_chunk(b, "IEND", {});
    return b;
}

Bytes bmp_header(std::int32_t w, std::int32_t h) {
    Bytes b{'B', 'M'};
    put_le32(b, 0), put_le32(b, 0), put_le32(b, 54);
    put_le32(b, 40), put_le32(b, std::uint32_t(w)), put_le32(b, std::uint32_t(h));
    put_le16(b, 1), put_le16(b, 24);
    for (int i = 0; i < 6; ++i) put_le32(b, 0);
    b.resize(b.size() + 64, 0);
    return b;
}

Bytes gif_header(unsigned w, unsigned h) {
    Bytes b{'G', 'I', 'F', '8', '9', 'a'};
    put_le16(b, w), put_le16(b, h);
    b.insert(b.end(), {0, 0, 0, ';'});
    return b;
}

// A two-colour GIF whose first frame is frame_w x frame_h at the origin, with the given LZW bytes.
Bytes gif_with_frame(unsigned screen_w, unsigned screen_h, unsigned frame_w, unsigned frame_h, const Bytes& lzw) {
    Bytes b{'G', 'I', 'F', '8', '9', 'a'};
    put_le16(b, screen_w), put_le16(b, screen_h);
    b.insert(b.end(), {0x80, 0, 0, 0, 0, 0, 255, 255, 255});  // global table of 2 colours
    b.push_back(',');
    put_le16(b, 0), put_le16(b, 0), put_le16(b, frame_w), put_le16(b, frame_h);
    b.insert(b.end(), {0, 2, std::uint8_t(lzw.size())});  // no local table, LZW minimum code size 2
    b.insert(b.end(), lzw.begin(), lzw.end());
    b.insert(b.end(), {0, ';'});
    return b;
}
const Bytes kOnePixelLzw{0x44, 0x01};  // 3-bit codes: clear, index 0, end

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }
Bytes operator+(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

void expect_refused(const Bytes& b, const char* word1, const char* word2) {
    LF_EXPECT_INPUT_ERROR(lf::decode_image(b.data(), b.size()), word1, word2);
}

}  // namespace

class TestImageLimits : public QObject {
    Q_OBJECT

private slots:
    void pixelCountAboveCapIsRefused() {
        expect_refused(png_header(20000, 20000), "implausible PNG size", "20000 x 20000");
        expect_refused(bmp_header(20000, -20000), "implausible BMP size", "20000 x 20000");
        expect_refused(gif_header(65535, 65535), "implausible GIF size", "65535 x 65535");
        expect_refused(text("P6\n20000 20000\n255\n"), "implausible PNM size", "20000 x 20000");
    }

    void sideAboveCapIsRefused() {  // a 1-pixel-high strip can still be too wide
        expect_refused(png_header(100000, 1), "implausible PNG size", "100000 x 1");
        expect_refused(text("P5 70000 1 255\n"), "implausible PNM size", "70000 x 1");
    }

    void jpegSizeAboveCapIsRefused() {
        Bytes jpeg = lf::read_file_bytes(qEnvironmentVariable("LF_SOURCE_DIR").toStdString() +
                                         "/tests/fixtures/images/gray.jpg");
        bool patched = false;
        for (std::size_t i = 0; i + 9 < jpeg.size() && !patched; ++i) {
            if (jpeg[i] == 0xFF && jpeg[i + 1] == 0xC0) {  // SOF0: length, precision, height, width
                jpeg[i + 5] = 0x75, jpeg[i + 6] = 0x30;      // 30000
                jpeg[i + 7] = 0x75, jpeg[i + 8] = 0x30;
                patched = true;
            }
        }
        QVERIFY2(patched, "gray.jpg has no baseline SOF0 marker");
        expect_refused(jpeg, "implausible JPEG size", "30000 x 30000");
    }

    void declaredSamplesBeyondTheBytesAreRefused() {
        // Within the pixel cap, but the file holds none of the data: no 192 MB image is allocated.
        expect_refused(text("P6\n8000 8000\n255\n" + std::string(16, '\0')), "truncated PNM pixel data", "8000 x 8000");
        expect_refused(text("P3\n8000 8000\n255\n1 2 3"), "truncated PNM pixel data", "8000 x 8000");
        expect_refused(bmp_header(8000, 8000), "truncated BMP pixel data", "BMP");
    }

    void gifFramesTheirBytesCannotFillAreRefused() {
        // Found by fuzzing: 165 bytes declaring a 769 x 42309 screen took seconds to paint.
        expect_refused(gif_with_frame(769, 42309, 1, 1, kOnePixelLzw), "implausible GIF", "1 x 1 frame on a 769 x 42309");
        // A 64-megapixel frame (under the pixel cap) from two bytes of codes: refused, not allocated.
        expect_refused(gif_with_frame(8000, 8000, 8000, 8000, kOnePixelLzw), "truncated GIF", "8000 x 8000 frame");
    }

    void smallGifFramesOnModestScreensStillDecode() {
        const Bytes gif = gif_with_frame(3, 2, 1, 1, kOnePixelLzw);
        const lf::Image img = lf::decode_image(gif.data(), gif.size());
        QCOMPARE(img.width, 3);
        QCOMPARE(img.height, 2);
        QCOMPARE(int(img.pixels[0]), 0);  // the frame's pixel is colour 0 (black) ...
        QCOMPARE(int(img.pixels[3]), 0);  // ... and so is the background (index 0)
    }

    void smallImagesStillDecode() {
        const Bytes ppm = text("P6\n2 1\n255\n") + Bytes{1, 2, 3, 4, 5, 6};
        const lf::Image img = lf::decode_image(ppm.data(), ppm.size());
        QCOMPARE(img.width, 2);
        QCOMPARE(img.pixels, (std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6}));
        const Bytes ascii = text("P2 2 2 255\n0 64 128 255");
        QCOMPARE(lf::decode_image(ascii.data(), ascii.size()).pixels, (std::vector<std::uint8_t>{0, 64, 128, 255}));
    }
};

QTEST_APPLESS_MAIN(TestImageLimits)
#include "test_image_limits.moc"
