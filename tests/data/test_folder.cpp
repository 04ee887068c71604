// A messy image folder made by the test: mixed formats and modes, upper-case extensions, corrupt,
// truncated, zero-byte and text-named-.jpg files, hidden files, nested folders, unicode names,
// an empty class, a duplicate. Exact counts and labels from scan, inspect and the pipeline.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "layerforge/data/binding.h"
#include "layerforge/data/image.h"
#include "layerforge/data/pipeline.h"
#include "layerforge/data/scan.h"
#include "lf_test_util.h"

namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) {
    return qEnvironmentVariable("LF_SOURCE_DIR").toStdString() + "/tests/fixtures/images/" + name;
}

void put(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}
void put(const fs::path& p, const std::string& text) { put(p, std::vector<std::uint8_t>(text.begin(), text.end())); }
void copy_fixture(const std::string& from, const fs::path& to) { put(to, lf::read_file_bytes(fixture(from))); }

// cat: 6 good images; dog: 3 good, 2 that fail to decode, 2 the scan rejects; empty_class: none.
void make_messy(const fs::path& root) {
    copy_fixture("rgb.png", root / "cat/a.png");
    copy_fixture("rgb.jpg", root / "cat/B.JPG");
    copy_fixture("rgb.bmp", root / "cat/c.Bmp");
    copy_fixture("palette.gif", root / "cat/nested/deeper/d.gif");
    copy_fixture("rgb.ppm", root / "cat/e.ppm");
    copy_fixture("gray.png", root / "cat/ünï côdé 猫.png");
    copy_fixture("rgb.png", root / "cat/.hidden.png");
    put(root / "cat/notes.txt", "not an image");
    put(root / "cat/Thumbs.db", "junk");
    copy_fixture("cmyk.jpg", root / "dog/f.jpeg");
    copy_fixture("rgba.png", root / "dog/g.png");
    copy_fixture("rgb.png", root / "dog/dup.png");  // same bytes as cat/a.png
    put(root / "dog/zero.png", std::vector<std::uint8_t>{});
    put(root / "dog/text.jpg", "hello, I am text");
    std::vector<std::uint8_t> jpg = lf::read_file_bytes(fixture("rgb.jpg"));
    jpg.resize(jpg.size() / 2);
    put(root / "dog/trunc.jpg", jpg);
    std::vector<std::uint8_t> png = lf::read_file_bytes(fixture("rgb.png"));
    for (std::size_t i = 40; i < png.size(); ++i) png[i] = std::uint8_t(i * 91);
    put(root / "dog/corrupt.png", png);
    fs::create_directories(root / "empty_class");
    put(root / ".git/config", "[core]");
    put(root / "README.md", "# data");
    copy_fixture("gray.png", root / "loose.png");
}

lf::PipelineOptions small_options(std::int64_t batch) {
    lf::PipelineOptions o;
    o.sample.width = 4, o.sample.height = 4, o.sample.channels = 3;
    o.batch_size = batch;
    o.workers = 2;
    return o;
}

std::vector<std::int32_t> epoch_labels(lf::BatchSource& s, std::int64_t epoch, std::vector<std::int64_t>* sizes = nullptr) {
    std::vector<std::int32_t> labels;
    s.start_epoch(epoch);
    for (lf::BatchView b = s.next(); b.count; b = s.next()) {
        labels.insert(labels.end(), b.labels, b.labels + b.count);
        if (sizes) sizes->push_back(b.count);
    }
    return labels;
}

}  // namespace

class TestFolder : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    fs::path root() const { return fs::path(tmp_.path().toStdString()) / "messy"; }

private slots:
    void initTestCase() { make_messy(root()); }

    void scan_counts_and_labels() {
        const lf::FolderScan s = lf::scan_image_folder(root().string());
        QCOMPARE(s.class_names, (std::vector<std::string>{"cat", "dog", "empty_class"}));
        QVERIFY(!s.split_layout);
        QCOMPARE(lf::class_counts(s.train, 3), (std::vector<std::int64_t>{6, 5, 0}));
        QCOMPARE(s.problems.size(), 2u);  // zero.png and text.jpg
        QVERIFY(s.problems[0].reason.find("empty") != std::string::npos || s.problems[1].reason.find("empty") != std::string::npos);
        QCOMPARE(s.hidden, 2);            // cat/.hidden.png and .git/
        QCOMPARE(s.non_images, 3);        // notes.txt, Thumbs.db, README.md
        QCOMPARE(s.outside_classes, 1);   // loose.png
        for (const auto& f : s.train) {   // every file's label is its top folder under the root
            const std::string rel = fs::relative(f.path, root()).string();
            QCOMPARE(rel.substr(0, rel.find('/')), s.class_names[std::size_t(f.label)]);
        }
    }
    void inspect_decodes_everything() {
        const lf::FolderReport r = lf::inspect_image_folder(root().string(), 2);
        QCOMPARE(r.usable, 9);
        QCOMPARE(r.train_counts, (std::vector<std::int64_t>{6, 3, 0}));
        QCOMPARE(r.problems.size(), 4u);
        std::set<std::string> bad;
        for (const auto& p : r.problems) bad.insert(fs::path(p.path).filename().string());
        QCOMPARE(bad, (std::set<std::string>{"zero.png", "text.jpg", "trunc.jpg", "corrupt.png"}));
        QCOMPARE(r.duplicates.size(), 1u);
        QCOMPARE(r.duplicates[0].size(), 2u);
        QCOMPARE(r.channels.at(1), 1);  // the gray PNG
        QCOMPARE(r.channels.at(4), 1);  // the RGBA PNG
        QCOMPARE(r.channels.at(3), 7);
        QCOMPARE(r.formats.at("JPEG"), 2);
        QCOMPARE(r.sizes.at("5x3"), 9);
    }
    void pipeline_skips_and_reports_bad_files() {
        const lf::FolderScan s = lf::scan_image_folder(root().string());
        lf::ImagePipeline pipe(s.train, s.class_names, small_options(4));
        QCOMPARE(pipe.size(), 11);
        std::vector<std::int64_t> sizes;
        // Unshuffled: (label, path) order; the two broken dog files are dropped from their batch.
        QCOMPARE(epoch_labels(pipe, 1, &sizes), (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 1, 1, 1}));
        QCOMPARE(sizes, (std::vector<std::int64_t>{4, 3, 2}));  // cat cat cat cat | cat cat (corrupt) dup | f g (trunc)
        QCOMPARE(pipe.problems().size(), 2u);
        QCOMPARE(pipe.size(), 9);  // later epochs leave them out
        sizes.clear();
        const auto second = epoch_labels(pipe, 2, &sizes);
        QCOMPARE(pipe.problems().size(), 2u);  // a failed JPEG must not break the next one on that thread
        QCOMPARE(second.size(), 9u);
        QCOMPARE(sizes, (std::vector<std::int64_t>{4, 4, 1}));
    }
    void split_layout_and_binding() {
        const fs::path r = fs::path(tmp_.path().toStdString()) / "split";
        copy_fixture("rgb.png", r / "train/b/1.png");
        copy_fixture("rgb.png", r / "train/b/2.png");
        copy_fixture("gray.png", r / "train/a/1.png");
        copy_fixture("gray.png", r / "Valid/a/1.png");
        copy_fixture("gray.png", r / "test/a/1.png");
        copy_fixture("gray.png", r / "test/zebra/1.png");  // a class that training does not know
        const lf::FolderScan s = lf::scan_image_folder(r.string());
        QVERIFY(s.split_layout && s.has_validation && s.has_test);
        QCOMPARE(s.class_names, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(s.train.size(), 3u);
        QCOMPARE(s.validation.size(), 1u);
        QCOMPARE(s.test.size(), 1u);
        QCOMPARE(s.problems.size(), 1u);
        QVERIFY(s.problems[0].reason.find("zebra") != std::string::npos);

        lf::DatasetBinding b;
        b.kind = "image-folder";
        b.path = r.string();
        lf::BindOptions o;
        o.input_shape = lf::Shape{8, 8, 1};
        o.batch_size = 2;
        auto data = lf::bind_sources(b, 1, o);
        QCOMPARE(data->train->size(), 3);
        QCOMPARE(data->validation->size(), 1);
        QCOMPARE(data->test->size(), 1);
        b.classes = {"a", "c"};
        LF_EXPECT_INPUT_ERROR(lf::bind_sources(b, 1, o), "dataset.classes");
        b.classes.clear();
        b.image["rotat"] = 3.0;
        LF_EXPECT_INPUT_ERROR(lf::bind_sources(b, 1, o), "dataset.image.rotat");
        b.image = {{"rotate", 500.0}};
        LF_EXPECT_INPUT_ERROR(lf::bind_sources(b, 1, o), "dataset.image.rotate");
        b.image.clear();
        o.input_shape = lf::Shape{784};
        LF_EXPECT_INPUT_ERROR(lf::bind_sources(b, 1, o), "Input");
        b.path = (r / "absent").string();
        o.input_shape = lf::Shape{8, 8, 1};
        LF_EXPECT_INPUT_ERROR(lf::bind_sources(b, 1, o), "absent");
    }
    void validation_split_of_a_folder_is_stratified_and_seeded() {
        const fs::path r = fs::path(tmp_.path().toStdString()) / "many";
        for (int i = 0; i < 20; ++i) copy_fixture("gray.png", r / (i < 15 ? "x" : "y") / (std::to_string(i) + ".png"));
        lf::DatasetBinding b;
        b.kind = "image-folder";
        b.path = r.string();
        b.validation = "split";
        b.validation_split = 0.2;
        lf::BindOptions o;
        o.input_shape = lf::Shape{2, 2, 1};
        o.batch_size = 50;
        auto d1 = lf::bind_sources(b, 5, o), d2 = lf::bind_sources(b, 5, o);
        QCOMPARE(d1->train->size(), 16);
        const auto v = epoch_labels(*d1->validation, 1);
        QCOMPARE(v, (std::vector<std::int32_t>{0, 0, 0, 1}));  // 3 of 15 and 1 of 5
        QCOMPARE(epoch_labels(*d2->validation, 1), v);
        QVERIFY(!d1->test);
    }
};

QTEST_APPLESS_MAIN(TestFolder)
#include "test_folder.moc"
