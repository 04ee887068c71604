// predict_image_files, what `layerforge-cli predict` and the studio's drop-to-classify share:
// each file decoded and scaled as the binding does for training, predicted in one batch, with
// its probabilities ranked; a file that cannot be read or decoded reported by name, in order.
#include <QTemporaryDir>
#include <QtTest>

#include "layerforge/core/file_io.h"
#include "layerforge/data/image.h"
#include "layerforge/train/predict_images.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

namespace {

// Input(4, 4, 1) -> Flatten -> Dense(units) [-> Softmax]: an image folder's model.
lf::Project project(std::int64_t units, bool softmax) {
    lf::Project p;
    p.graph.nodes = {{"input", "Input", "input", {{"shape", lf::IntList{4, 4, 1}}}, 0, 0},
                     {"flatten", "Flatten", "flatten", {}, 0, 0},
                     {"dense", "Dense", "dense", {{"units", units}, {"activation", std::string(softmax ? "linear" : "sigmoid")}}, 0, 0}};
    p.graph.edges = {{{"input", 0}, {"flatten", 0}}, {{"flatten", 0}, {"dense", 0}}};
    if (softmax) {
        p.graph.nodes.push_back({"softmax", "Softmax", "softmax", {}, 0, 0});
        p.graph.edges.push_back({{"dense", 0}, {"softmax", 0}});
    }
    p.dataset.kind = "image-folder";
    return p;
}

// An 8x8 grey PNG (resized to the model's 4x4) whose pixels are `v`.
void write_png(const std::string& path, std::uint8_t v) {
    lf::Image img;
    img.allocate(8, 8, 1);
    std::fill(img.pixels.begin(), img.pixels.end(), v);
    const std::vector<std::uint8_t> png = lf::encode_png(img);
    lf::write_file_atomic(path, std::string(png.begin(), png.end()), "test image");
}

}  // namespace

class TestPredictImages : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private slots:
    void files_are_predicted_in_order_and_failures_named() {
        write_png(path("dark.png"), 10);
        write_png(path("light.png"), 240);
        QVERIFY(writeFile(dir_.filePath("broken.png"), "not a png"));
        const lf::Project p = project(3, true);
        lf::Model model(p.graph);
        model.init_weights(7);
        const std::vector<std::string> files{path("dark.png"), path("missing.png"), path("light.png"), path("broken.png")};
        const std::vector<lf::FilePrediction> r = lf::predict_image_files(model, p, files, {}, {});
        QCOMPARE(r.size(), files.size());
        for (std::size_t i = 0; i < files.size(); ++i) QCOMPARE(r[i].file, files[i]);
        for (std::size_t i : {1, 3}) {
            QVERIFY2(r[i].error.rfind(files[i] + ": ", 0) == 0, r[i].error.c_str());
            QVERIFY(r[i].probabilities.empty());
        }
        QVERIFY2(r[3].error.find("PNG") != std::string::npos || r[3].error.find("format") != std::string::npos,
                 r[3].error.c_str());

        // The same as the trainer's prediction of the decoded samples, ranked by probability.
        lf::TensorDataset both;
        both.sample_shape = lf::Shape{4, 4, 1};
        for (std::size_t i : {0, 2}) {
            QVERIFY(r[i].error.empty());
            QCOMPARE(r[i].sample.size(), std::size_t(16));
            LF_COMPARE_NEAR(r[i].sample[0], i == 0 ? 10 / 255.0 : 240 / 255.0, 1e-6);  // scaled to [0, 1]
            both.images.insert(both.images.end(), r[i].sample.begin(), r[i].sample.end());
            both.labels.push_back(0);
        }
        const std::vector<float> out = lf::Trainer(model, p.training).predict(both);
        for (std::size_t k = 0; k < 2; ++k) {
            const lf::FilePrediction& f = r[k == 0 ? 0 : 2];
            QCOMPARE(f.probabilities.size(), std::size_t(3));
            for (std::size_t c = 0; c < 3; ++c) LF_COMPARE_NEAR(f.probabilities[c], out[k * 3 + c], 1e-6);
            QCOMPARE(f.ranking.size(), std::size_t(3));
            for (std::size_t c = 1; c < 3; ++c)
                QVERIFY(f.probabilities[std::size_t(f.ranking[c - 1])] >= f.probabilities[std::size_t(f.ranking[c])]);
        }
    }

    void standardisation_is_the_one_given() {
        write_png(path("mid.png"), 128);
        const lf::Project p = project(3, true);
        lf::Model model(p.graph);
        const auto r = lf::predict_image_files(model, p, {path("mid.png")}, {100.f / 255}, {0.5f});
        LF_COMPARE_NEAR(r[0].sample[0], (128 / 255.0 - 100 / 255.0) / 0.5, 1e-5);
    }

    void one_sigmoid_unit_gives_two_classes() {
        write_png(path("one.png"), 200);
        const lf::Project p = project(1, false);
        lf::Model model(p.graph);
        model.init_weights(3);
        const auto r = lf::predict_image_files(model, p, {path("one.png")}, {}, {});
        QCOMPARE(r[0].probabilities.size(), std::size_t(2));
        LF_COMPARE_NEAR(r[0].probabilities[0] + r[0].probabilities[1], 1.0, 1e-6);
        QCOMPARE(r[0].ranking[0], std::int64_t(r[0].probabilities[1] > r[0].probabilities[0] ? 1 : 0));
    }

    void settings_that_cannot_predict_throw() {
        lf::Project p = project(3, true);
        p.graph.nodes[0].params["shape"] = lf::IntList{16};  // not an image
        p.graph.nodes.erase(p.graph.nodes.begin() + 1);      // no Flatten needed
        p.graph.edges = {{{"input", 0}, {"dense", 0}}, {{"dense", 0}, {"softmax", 0}}};
        lf::Model model(p.graph);
        LF_EXPECT_INPUT_ERROR(lf::predict_image_files(model, p, {path("any.png")}, {}, {}), "Input");
    }

    void class_names_are_completed() {
        QCOMPARE(lf::class_names_for({"cat"}, 3), (std::vector<std::string>{"cat", "class 1", "class 2"}));
        QCOMPARE(lf::class_names_for({}, 1), (std::vector<std::string>{"class 0", "class 1"}));
        QCOMPARE(lf::class_names_for({"a", "b", "c"}, 2), (std::vector<std::string>{"a", "b", "c"}));
    }
};

QTEST_MAIN(TestPredictImages)
#include "test_predict_images.moc"
