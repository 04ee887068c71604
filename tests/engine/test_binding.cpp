// Dataset binding: validation modes and the stratified, seeded validation split.
#include <QtTest>

#include "layerforge/data/binding.h"
#include "lf_test_util.h"

namespace {

lf::TensorDataset labelled(std::vector<std::int32_t> labels) {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{1};
    d.labels = std::move(labels);
    for (std::size_t i = 0; i < d.labels.size(); ++i) d.images.push_back(float(i));
    d.class_names = {"a", "b", "c"};
    return d;
}

}  // namespace

class TestBinding : public QObject {
    Q_OBJECT
private slots:
    void split_is_stratified_disjoint_and_seeded() {
        std::vector<std::int32_t> labels;
        for (int i = 0; i < 100; ++i) labels.push_back(i < 60 ? 0 : i < 90 ? 1 : 2);
        auto train = labelled(labels), again = labelled(labels), other = labelled(labels);
        auto val = lf::split_stratified(train, 0.2, 7);
        auto val_again = lf::split_stratified(again, 0.2, 7);
        auto val_other = lf::split_stratified(other, 0.2, 8);
        QCOMPARE(val.size(), 20);  // 12 + 6 + 2
        QCOMPARE(train.size(), 80);
        QCOMPARE(std::count(val.labels.begin(), val.labels.end(), 0), 12);
        QCOMPARE(std::count(val.labels.begin(), val.labels.end(), 1), 6);
        QCOMPARE(std::count(val.labels.begin(), val.labels.end(), 2), 2);
        QCOMPARE(val.images, val_again.images);
        QVERIFY(val.images != val_other.images);
        std::vector<float> all = train.images;
        all.insert(all.end(), val.images.begin(), val.images.end());
        std::sort(all.begin(), all.end());
        for (int i = 0; i < 100; ++i) QCOMPARE(all[std::size_t(i)], float(i));  // disjoint and complete
        for (std::size_t i = 0; i < val.labels.size(); ++i)  // images travel with their labels
            QCOMPARE(val.labels[i], labels[std::size_t(val.images[i])]);
    }
    void validation_modes() {
        lf::DatasetBinding b;
        b.limit_train = 200;
        b.limit_test = 50;
        b.validation = "test";
        auto t = lf::load_bound_data(b, 1);
        QVERIFY(t.validation);
        QCOMPARE(t.validation->size(), 50);
        b.validation = "split";
        b.validation_split = 0.25;
        auto s = lf::load_bound_data(b, 1);
        QCOMPARE(s.train.size() + s.validation->size(), 200);
        QVERIFY(s.validation->size() >= 45 && s.validation->size() <= 55);
        b.validation = "none";
        QVERIFY(!lf::load_bound_data(b, 1).validation);
    }
    void bad_bindings_name_the_field() {
        lf::DatasetBinding b;
        b.kind = "image-folder";
        LF_EXPECT_INPUT_ERROR(lf::load_bound_data(b, 1), "dataset.kind");
        b.kind = "fashion-mnist";
        b.validation = "split";
        b.validation_split = 0;
        b.limit_train = 10;
        LF_EXPECT_INPUT_ERROR(lf::load_bound_data(b, 1), "dataset.validation_split");
    }
};

QTEST_APPLESS_MAIN(TestBinding)
#include "test_binding.moc"
