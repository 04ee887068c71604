#include <zlib.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"

namespace {

std::vector<unsigned char> idx_bytes(std::uint32_t magic, const std::vector<std::uint32_t>& dims,
                                     const std::vector<unsigned char>& data) {
    std::vector<unsigned char> out;
    auto put = [&](std::uint32_t v) {
        for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
    };
    put(magic);
    for (std::uint32_t d : dims) put(d);
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

void write_file(const std::string& path, const std::vector<unsigned char>& bytes, bool gz) {
    if (gz) {
        gzFile f = gzopen(path.c_str(), "wb");
        QVERIFY(f);
        QCOMPARE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), int(bytes.size()));
        gzclose(f);
    } else {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        QVERIFY(f);
        if (!bytes.empty())  // an empty vector's data() may be null, which fwrite must not get
            QCOMPARE(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
        std::fclose(f);
    }
}

// Three 2x3 images with pixel values 0..17 scaled by 15, labels 7, 0, 255.
std::vector<unsigned char> pixels() {
    std::vector<unsigned char> p(18);
    for (int i = 0; i < 18; ++i) p[i] = static_cast<unsigned char>(i * 15);
    return p;
}
const std::vector<unsigned char> kLabels{7, 0, 255};

// Runs fn, expects an Input error whose message contains `needle` (a file path).
template <class Fn>
void expect_input_error(Fn fn, const std::string& needle, const char* also = nullptr) {
    try {
        fn();
        QFAIL("no error thrown");
    } catch (const lf::Error& e) {
        QCOMPARE(int(e.kind()), int(lf::ErrorKind::Input));
        const std::string msg = e.what();
        QVERIFY2(msg.find(needle) != std::string::npos, msg.c_str());
        if (also) QVERIFY2(msg.find(also) != std::string::npos, msg.c_str());
    }
}

}  // namespace

class TestIdx : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

    void write_pair(const std::string& img, const std::string& lbl, bool gz) {
        write_file(img, idx_bytes(0x803, {3, 2, 3}, pixels()), gz);
        write_file(lbl, idx_bytes(0x801, {3}, kLabels), gz);
    }

    void check_full(const lf::TensorDataset& ds) {
        QCOMPARE(ds.size(), std::int64_t(3));
        QCOMPARE(ds.sample_shape, lf::Shape({2, 3, 1}));
        QCOMPARE(ds.images.size(), std::size_t(18));
        for (int i = 0; i < 18; ++i) QCOMPARE(ds.images[i], float(i * 15) / 255.0f);
        QCOMPARE(ds.images.back(), 1.0f);
        QCOMPARE(ds.labels, (std::vector<std::int32_t>{7, 0, 255}));
        QCOMPARE(ds.sample(1)[0], 6 * 15 / 255.0f);
    }

private slots:
    void reads_plain_files() {
        write_pair(path("p-img"), path("p-lbl"), false);
        check_full(lf::read_idx_pair(path("p-img"), path("p-lbl")));
    }

    void reads_gzip_files() {
        write_pair(path("g-img.gz"), path("g-lbl.gz"), true);
        check_full(lf::read_idx_pair(path("g-img.gz"), path("g-lbl.gz")));
    }

    void limit_keeps_first_samples() {
        write_pair(path("l-img.gz"), path("l-lbl.gz"), true);
        auto ds = lf::read_idx_pair(path("l-img.gz"), path("l-lbl.gz"), 2);
        QCOMPARE(ds.size(), std::int64_t(2));
        QCOMPARE(ds.images.size(), std::size_t(12));
        QCOMPARE(ds.labels, (std::vector<std::int32_t>{7, 0}));
        QCOMPARE(lf::read_idx_pair(path("l-img.gz"), path("l-lbl.gz"), 10).size(), std::int64_t(3));
    }

    void missing_file_is_named() {
        write_pair(path("m-img"), path("m-lbl"), false);
        expect_input_error([&] { lf::read_idx_pair(path("nope-img"), path("m-lbl")); }, path("nope-img"),
                           "not found");
        expect_input_error([&] { lf::read_idx_pair(path("m-img"), path("nope-lbl")); }, path("nope-lbl"),
                           "not found");
    }

    void truncated_file_is_named() {
        auto img = idx_bytes(0x803, {3, 2, 3}, pixels());
        img.resize(img.size() - 1);
        write_file(path("t-img.gz"), img, true);
        write_file(path("t-lbl.gz"), idx_bytes(0x801, {3}, kLabels), true);
        expect_input_error([&] { lf::read_idx_pair(path("t-img.gz"), path("t-lbl.gz")); }, path("t-img.gz"),
                           "truncated");
        // Truncated inside the header.
        write_file(path("t-lbl2"), {0, 0, 8}, false);
        expect_input_error([&] { lf::read_idx_pair(path("t-img.gz"), path("t-lbl2")); }, path("t-lbl2"),
                           "truncated");
        write_file(path("t-lbl3"), idx_bytes(0x801, {3}, {1, 2}), false);
        write_file(path("t-img4"), idx_bytes(0x803, {3, 2, 3}, pixels()), false);
        expect_input_error([&] { lf::read_idx_pair(path("t-img4"), path("t-lbl3")); }, path("t-lbl3"),
                           "truncated");
        // A header that promises far more data than the file holds fails without huge allocations.
        write_file(path("t-img5"), idx_bytes(0x803, {50'000'000, 28, 28}, pixels()), false);
        write_file(path("t-lbl5"), idx_bytes(0x801, {50'000'000}, kLabels), false);
        expect_input_error([&] { lf::read_idx_pair(path("t-img5"), path("t-lbl5")); }, path("t-img5"),
                           "truncated");
        // A damaged gzip stream (cut short, then garbage).
        {
            std::vector<unsigned char> big(4000);
            for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<unsigned char>(i * 7919 % 251);
            write_file(path("z-img.gz"), idx_bytes(0x803, {1000, 2, 2}, big), true);
            QFile f(QString::fromStdString(path("z-img.gz")));
            QVERIFY(f.open(QIODevice::ReadWrite));
            const qint64 half = f.size() / 2;
            QVERIFY(f.resize(half));
            f.seek(half);
            f.write(QByteArray(64, '\x5a'));
        }
        write_file(path("z-lbl"), idx_bytes(0x801, {1000}, std::vector<unsigned char>(1000, 1)), false);
        expect_input_error([&] { lf::read_idx_pair(path("z-img.gz"), path("z-lbl")); }, path("z-img.gz"));
        write_file(path("empty"), {}, false);
        expect_input_error([&] { lf::read_idx_pair(path("empty"), path("t-lbl3")); }, path("empty"));
    }

    void bad_magic_is_named() {
        write_pair(path("b-img"), path("b-lbl"), false);
        // Swapped files: each has the other's magic.
        expect_input_error([&] { lf::read_idx_pair(path("b-lbl"), path("b-img")); }, path("b-lbl"), "magic");
        expect_input_error([&] { lf::read_idx_pair(path("b-img"), path("b-img")); }, path("b-img"), "magic");
        write_file(path("b-float"), idx_bytes(0x0d03, {3, 2, 3}, pixels()), false);
        expect_input_error([&] { lf::read_idx_pair(path("b-float"), path("b-lbl")); }, path("b-float"),
                           "magic");
    }

    void count_mismatch_is_named() {
        write_file(path("c-img"), idx_bytes(0x803, {3, 2, 3}, pixels()), false);
        write_file(path("c-lbl"), idx_bytes(0x801, {2}, {1, 2}), false);
        expect_input_error([&] { lf::read_idx_pair(path("c-img"), path("c-lbl")); }, path("c-lbl"), "3 images");
    }

    void absurd_dims_are_rejected() {
        write_file(path("a-img"), idx_bytes(0x803, {1, 0, 3}, {}), false);
        write_file(path("a-lbl"), idx_bytes(0x801, {1}, {1}), false);
        expect_input_error([&] { lf::read_idx_pair(path("a-img"), path("a-lbl")); }, path("a-img"),
                           "dimensions");
        write_file(path("a-img2"), idx_bytes(0x803, {0xffffffffu, 0xffffffffu, 0xffffffffu}, {}), false);
        expect_input_error([&] { lf::read_idx_pair(path("a-img2"), path("a-lbl")); }, path("a-img2"),
                           "dimensions");
    }

    void missing_fashion_mnist_dir_says_what_to_install() {
        expect_input_error([&] { lf::load_fashion_mnist(path("no-such-dir")); }, path("no-such-dir"),
                           "apt-get install dataset-fashion-mnist");
        write_pair(path("train-images-idx3-ubyte.gz"), path("train-labels-idx1-ubyte.gz"), true);
        expect_input_error([&] { lf::load_fashion_mnist(dir_.path().toStdString()); },
                           path("t10k-images-idx3-ubyte.gz"), "dataset-fashion-mnist");
    }

    void env_overrides_default_dir() {
        qputenv("LF_FASHION_MNIST_DIR", dir_.path().toUtf8());
        QCOMPARE(lf::default_fashion_mnist_dir(), dir_.path().toStdString());
        qunsetenv("LF_FASHION_MNIST_DIR");
        QCOMPARE(lf::default_fashion_mnist_dir(), std::string("/usr/share/datasets/fashion-mnist"));
    }

    void loads_real_fashion_mnist() {
        if (!QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
            QFAIL("dataset-fashion-mnist is not installed: run scripts/setup.sh");
        lf::DatasetSplits s = lf::load_fashion_mnist({}, 100, 100);
        for (const lf::TensorDataset* ds : {&s.train, &s.test}) {
            QCOMPARE(ds->size(), std::int64_t(100));
            QCOMPARE(ds->sample_shape, lf::Shape({28, 28, 1}));
            QCOMPARE(ds->images.size(), std::size_t(100 * 784));
            QCOMPARE(ds->class_names.size(), std::size_t(10));
            for (float v : ds->images) QVERIFY(v >= 0.0f && v <= 1.0f);
            for (std::int32_t l : ds->labels) QVERIFY(l >= 0 && l < 10);
        }
        QCOMPARE(s.train.class_names.front(), std::string("T-shirt/top"));
        QCOMPARE(s.train.class_names.back(), std::string("Ankle boot"));
        // Known values, read once with
        //   python3 -c "import gzip; d=gzip.open('.../train-labels-idx1-ubyte.gz').read(); print(list(d[8:13]))"
        // -> [9, 0, 0, 3, 0]; t10k labels start [9, 2, 1, 1, 6]; the first training image's u8 pixels
        // sum to 76247 (sum(d[16:16+784]) of train-images-idx3-ubyte.gz).
        QCOMPARE(s.train.labels[0], 9);
        QCOMPARE((std::vector<std::int32_t>(s.train.labels.begin(), s.train.labels.begin() + 5)),
                 (std::vector<std::int32_t>{9, 0, 0, 3, 0}));
        QCOMPARE((std::vector<std::int32_t>(s.test.labels.begin(), s.test.labels.begin() + 5)),
                 (std::vector<std::int32_t>{9, 2, 1, 1, 6}));
        double sum = 0;
        for (int i = 0; i < 784; ++i) sum += s.train.images[i] * 255.0;
        QCOMPARE(qRound(sum), 76247);
    }
};

QTEST_APPLESS_MAIN(TestIdx)
#include "test_idx.moc"
