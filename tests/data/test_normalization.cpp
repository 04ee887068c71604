// The image binding's normalisation presets, numerically: a bound image folder's samples are
// (v / 255 - mean) / std per channel with torchvision's ImageNet statistics, [-1, 1] as Keras'
// MobileNetV2 preprocess_input (v / 127.5 - 1), and [0, 1]; the statistics are reported for the
// weights file, and presets that cannot apply are refused with the field named.
#include <QtTest>

#include <fstream>

#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/normalization.h"
#include "layerforge/project/project.h"

namespace {

// 2x2 RGB pixels, row-major interleaved; the same image in every class.
const std::uint8_t kPixels[12] = {0, 128, 255, 10, 20, 30, 200, 100, 50, 255, 255, 0};

void write_ppm(const std::string& path) {
    std::ofstream f(path, std::ios::binary);
    f << "P6\n2 2\n255\n";
    f.write(reinterpret_cast<const char*>(kPixels), sizeof kPixels);
}

std::unique_ptr<lf::BoundSources> bind(const QTemporaryDir& dir, const std::string& normalize, std::int64_t channels = 3) {
    for (const char* c : {"a", "b"}) {
        QDir().mkpath(dir.filePath(QString("train/") + c));
        write_ppm(dir.filePath(QString("train/") + c + "/0.ppm").toStdString());
    }
    lf::DatasetBinding b;
    b.kind = "image-folder";
    b.path = dir.path().toStdString();
    b.validation = "none";
    b.image = {{"normalize", normalize}};
    return lf::bind_sources(b, 1, {.input_shape = lf::Shape{2, 2, channels}, .batch_size = 2, .shuffle = false});
}

std::vector<float> first_sample(lf::BatchSource& s) {
    s.start_epoch(0);
    const lf::BatchView v = s.next();
    return std::vector<float>(v.images, v.images + 12);
}

void expect_normalized(const std::vector<float>& got, const float mean[3], const float sd[3]) {
    for (std::size_t i = 0; i < 12; ++i) {
        const float want = (float(kPixels[i]) / 255.f - mean[i % 3]) / sd[i % 3];
        QVERIFY2(std::abs(got[i] - want) < 1e-5f, qPrintable(QString("value %1: %2, want %3").arg(i).arg(got[i]).arg(want)));
    }
}

}  // namespace

class TestNormalization : public QObject {
    Q_OBJECT

private slots:
    void imagenetUsesTorchvisionStatistics() {
        QTemporaryDir dir;
        auto data = bind(dir, "imagenet");
        const float mean[3] = {0.485f, 0.456f, 0.406f}, sd[3] = {0.229f, 0.224f, 0.225f};
        QCOMPARE(data->mean, std::vector<float>(mean, mean + 3));  // saved with the trained weights
        QCOMPARE(data->std, std::vector<float>(sd, sd + 3));
        expect_normalized(first_sample(*data->train), mean, sd);
        QCOMPARE(first_sample(*data->train)[2], (1.f - 0.406f) / 0.225f);
    }

    void symmetricIsMobileNetsPreprocessInput() {
        QTemporaryDir dir;
        auto data = bind(dir, "symmetric");
        const std::vector<float> got = first_sample(*data->train);
        for (std::size_t i = 0; i < 12; ++i) QVERIFY(std::abs(got[i] - (float(kPixels[i]) / 127.5f - 1.f)) < 1e-5f);
        QCOMPARE(got[0], -1.f);
        QCOMPARE(got[2], 1.f);
    }

    void scaleIsZeroToOneAndSavesNoStatistics() {
        QTemporaryDir dir;
        auto data = bind(dir, "scale");
        QVERIFY(data->mean.empty() && data->std.empty());
        const float mean[3] = {0, 0, 0}, sd[3] = {1, 1, 1};
        expect_normalized(first_sample(*data->train), mean, sd);
    }

    void presetsThatCannotApplyAreRefused() {
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::normalization_preset("imagenet", 1));
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::normalization_preset("caffe", 3));
        try {
            QTemporaryDir dir;
            bind(dir, "zscore");
            QFAIL("an unknown preset was accepted");
        } catch (const lf::Error& e) {
            QVERIFY2(std::string(e.what()).find("dataset.image.normalize") != std::string::npos, e.what());
        }
        QCOMPARE(lf::normalization_modes(), (std::vector<std::string>{"scale", "standardize", "imagenet", "symmetric"}));
    }
};

QTEST_GUILESS_MAIN(TestNormalization)
#include "test_normalization.moc"
