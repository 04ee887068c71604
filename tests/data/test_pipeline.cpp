// Pipeline semantics: shuffle buffer (tf.data), last-batch handling, seeded augmentation, results
// independent of the worker count, the memory/file cache, normalisation statistics.
#include <QtTest>

#include <filesystem>
#include <numeric>
#include <set>

#include "layerforge/core/error.h"
#include "layerforge/data/image.h"
#include "layerforge/data/pipeline.h"
#include "lf_test_util.h"

namespace fs = std::filesystem;

class TestPipeline : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::vector<lf::LabeledFile> files_;  // 10 PNGs, image i has constant value 20 * i, label i % 2

    lf::PipelineOptions options(std::int64_t batch, int workers = 2) {
        lf::PipelineOptions o;
        o.sample.width = 6, o.sample.height = 4, o.sample.channels = 1;
        o.batch_size = batch;
        o.workers = workers;
        return o;
    }
    // The first pixel of every sample in an epoch, as the image index.
    static std::vector<int> epoch(lf::BatchSource& s, std::int64_t e, std::vector<std::int64_t>* sizes = nullptr) {
        std::vector<int> ids;
        s.start_epoch(e);
        for (lf::BatchView b = s.next(); b.count; b = s.next()) {
            for (std::int64_t i = 0; i < b.count; ++i) ids.push_back(int(std::lround(b.images[i * 24] * 255 / 20)));
            if (sizes) sizes->push_back(b.count);
        }
        return ids;
    }

private slots:
    void initTestCase() {
        for (int i = 0; i < 10; ++i) {
            lf::Image img;
            img.allocate(12, 8, 1);
            std::fill(img.pixels.begin(), img.pixels.end(), std::uint8_t(20 * i));
            const std::string path = tmp_.filePath(QString("img%1.png").arg(i)).toStdString();
            lf::write_file_bytes(path, lf::encode_png(img));
            files_.push_back({path, i % 2});
        }
    }
    void shuffle_buffer_semantics() {
        QCOMPARE(lf::shuffle_order(6, 1, 3), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
        const auto full = lf::shuffle_order(1000, 0, 3);
        QCOMPARE(std::set<std::int64_t>(full.begin(), full.end()).size(), 1000u);
        QVERIFY(full != lf::shuffle_order(1000, 0, 4));
        QCOMPARE(full, lf::shuffle_order(1000, 0, 3));
        const auto small = lf::shuffle_order(1000, 10, 3);  // a buffer of 10 moves items only so far ahead
        for (std::size_t i = 0; i < small.size(); ++i) QVERIFY(small[i] <= std::int64_t(i) + 9);
        int displaced_far = 0;  // a full buffer does move them far
        for (std::size_t i = 0; i < full.size(); ++i) displaced_far += full[i] > std::int64_t(i) + 9;
        QVERIFY(displaced_far > 100);
    }
    void batches_order_and_last_batch() {
        lf::ImagePipeline keep(files_, {"even", "odd"}, options(4));
        std::vector<std::int64_t> sizes;
        std::vector<int> ids = epoch(keep, 1, &sizes);
        QCOMPARE(ids, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(sizes, (std::vector<std::int64_t>{4, 4, 2}));
        QCOMPARE(keep.steps_per_epoch(), 3);
        auto o = options(4);
        o.drop_remainder = true;
        lf::ImagePipeline drop(files_, {"even", "odd"}, o);
        sizes.clear();
        QCOMPARE(epoch(drop, 1, &sizes).size(), 8u);
        QCOMPARE(sizes, (std::vector<std::int64_t>{4, 4}));
        QCOMPARE(drop.steps_per_epoch(), 2);
    }
    void shuffle_is_per_epoch_and_independent_of_workers() {
        auto o = options(3, 1);
        o.shuffle = true;
        o.seed = 11;
        lf::ImagePipeline one(files_, {"even", "odd"}, o);
        o.workers = 3;
        o.prefetch = 1;
        lf::ImagePipeline three(files_, {"even", "odd"}, o);
        const auto e1 = epoch(one, 1), e2 = epoch(one, 2);
        QVERIFY(e1 != e2);
        QCOMPARE(epoch(three, 1), e1);
        QCOMPARE(epoch(three, 2), e2);
        QCOMPARE(epoch(one, 1), e1);  // an epoch's order depends on (seed, epoch) only
        std::vector<int> sorted = e1;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(sorted, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    }
    void augmentation_is_seeded() {
        lf::Image img;
        img.allocate(8, 8, 3);
        for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = std::uint8_t(i * 7);
        lf::SampleSpec spec;
        spec.width = 8, spec.height = 8, spec.channels = 3;
        lf::AugmentSpec aug{.flip = true, .translate = 0.1, .rotate = 10, .brightness = 0.1, .contrast = 0.2};
        std::vector<float> a(192), b(192), c(192), plain(192);
        lf::sample_to_float(img, spec, &aug, 5, a.data());
        lf::sample_to_float(img, spec, &aug, 5, b.data());
        lf::sample_to_float(img, spec, &aug, 6, c.data());
        lf::sample_to_float(img, spec, nullptr, 0, plain.data());
        QCOMPARE(a, b);
        QVERIFY(a != c);
        QVERIFY(a != plain);
        QVERIFY(std::all_of(a.begin(), a.end(), [](float v) { return v >= 0 && v <= 1; }));
        lf::AugmentSpec flip_only{.flip = true};
        int flipped = 0;
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            lf::sample_to_float(img, spec, &flip_only, seed, c.data());
            if (c == plain) continue;
            ++flipped;
            for (int x = 0; x < 8; ++x)  // a mirror image, exactly
                for (int ch = 0; ch < 3; ++ch) LF_COMPARE_NEAR(c[std::size_t(x * 3 + ch)], plain[std::size_t((7 - x) * 3 + ch)], 1e-6);
        }
        QVERIFY(flipped > 3 && flipped < 17);
        // Through the pipeline: the same seed gives the same augmented epoch.
        auto o = options(4);
        o.augment = true;
        o.augmentation = aug;
        o.seed = 9;
        lf::ImagePipeline p1(files_, {"even", "odd"}, o), p2(files_, {"even", "odd"}, o);
        p1.start_epoch(1);
        p2.start_epoch(1);
        const lf::BatchView b1 = p1.next(), b2 = p2.next();
        QVERIFY(std::equal(b1.images, b1.images + 4 * 24, b2.images));
    }
    void cache_and_statistics() {
        const std::string cache = tmp_.filePath("c.lfcache").toStdString();
        auto o = options(4);
        o.cache = lf::CacheMode::File;
        o.cache_file = cache;
        {
            lf::ImagePipeline p(files_, {"even", "odd"}, o);
            const auto first = epoch(p, 1);
            QCOMPARE(p.stats().decoded, 10);
            QCOMPARE(epoch(p, 2), first);
            QCOMPARE(p.stats().from_cache, 10);
            QCOMPARE(p.stats().decoded, 0);
            std::vector<float> mean, sd;
            p.compute_mean_std(mean, sd);
            LF_COMPARE_NEAR(mean[0], 90.0 / 255, 1e-5);  // values 0, 20, ..., 180
            LF_COMPARE_NEAR(sd[0], std::sqrt(3300.0) / 255, 1e-4);
        }
        QVERIFY(fs::exists(cache));
        lf::ImagePipeline again(files_, {"even", "odd"}, o);  // a new run starts from the file
        epoch(again, 1);
        QCOMPARE(again.stats().from_cache, 10);
    }
    // Files that go away mid-run are not "bad files to skip": the next batch throws, naming one,
    // while the workers finish (no deadlock, also in the destructor). A corrupt file is skipped.
    void deleted_files_make_next_throw() {
        QTemporaryDir dir;
        std::vector<lf::LabeledFile> copies;
        for (const auto& f : files_) {
            const std::string to = dir.filePath(QString::fromStdString(fs::path(f.path).filename().string())).toStdString();
            fs::copy_file(f.path, to);
            copies.push_back({to, f.label});
        }
        lf::write_file_bytes(copies[3].path, std::vector<std::uint8_t>{1, 2, 3});  // corrupt, still there
        lf::ImagePipeline p(copies, {"even", "odd"}, options(2, 3));
        QCOMPARE(epoch(p, 1).size(), std::size_t(9));  // the corrupt file is skipped
        QCOMPARE(p.problems().size(), std::size_t(1));
        fs::remove(copies[6].path);
        p.start_epoch(2);
        QString message;
        try {
            for (lf::BatchView b = p.next(); b.count; b = p.next()) {
            }
        } catch (const lf::Error& e) {
            message = e.what();
            QCOMPARE(e.kind(), lf::ErrorKind::Runtime);
        }
        QVERIFY2(message.contains(QString::fromStdString(copies[6].path)) && message.contains("is missing"),
                 qPrintable(message));
        QVERIFY_THROWS_EXCEPTION(lf::Error, p.next());  // it stays failed
        QCOMPARE(p.problems().size(), std::size_t(1));  // not listed as a file to skip
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "test_pipeline.moc"
