#include <QtTest>

#include <vector>

#include "alloc_counter.h"
#include "layerforge/train/metrics.h"
#include "lf_test_util.h"

namespace {

double run(const std::string& name, const std::vector<float>& out, const std::vector<std::int32_t>& labels,
           std::int64_t c) {
    auto m = lf::make_metric(name);
    m->update(out.data(), labels.data(), static_cast<std::int64_t>(labels.size()), c);
    return m->result();
}

// Four samples over 4 classes. Ranks of the label: sample 0 top-1, sample 1 second,
// sample 2 third, sample 3 last.
const std::vector<float> kOut{0.7f, 0.1f, 0.1f, 0.1f,   // label 0: rank 1
                              0.5f, 0.3f, 0.1f, 0.1f,   // label 1: rank 2
                              0.4f, 0.3f, 0.2f, 0.1f,   // label 2: rank 3
                              0.4f, 0.3f, 0.2f, 0.1f};  // label 3: rank 4
const std::vector<std::int32_t> kLabels{0, 1, 2, 3};

}  // namespace

class TestMetrics : public QObject {
    Q_OBJECT
private slots:
    void accuracy_is_argmax_against_label() {
        QCOMPARE(run("accuracy", kOut, kLabels, 4), 0.25);
        QCOMPARE(run("sparse_categorical_accuracy", kOut, kLabels, 4), 0.25);
        // Works on logits too: only the ranking matters.
        QCOMPARE(run("accuracy", {-3.f, 2.f, 5.f, -1.f}, {1, 1}, 2), 0.5);
    }

    void argmax_ties_go_to_the_first_maximum() {
        QCOMPARE(run("accuracy", {0.4f, 0.4f, 0.2f}, {0}, 3), 1.0);
        QCOMPARE(run("accuracy", {0.4f, 0.4f, 0.2f}, {1}, 3), 0.0);
    }

    void top_k_counts_ranks() {
        QCOMPARE(run("top2_accuracy", kOut, kLabels, 4), 0.5);
        QCOMPARE(run("top3_accuracy", kOut, kLabels, 4), 0.75);
        QCOMPARE(run("top1_accuracy", kOut, kLabels, 4), 0.25);
        QCOMPARE(run("top_k_accuracy", kOut, kLabels, 4), 1.0);  // k = 5 >= c
        // With 6 classes, k = 5 misses only the lowest-ranked label.
        const std::vector<float> six{0.6f, 0.5f, 0.4f, 0.3f, 0.2f, 0.1f};
        QCOMPARE(run("top_k_accuracy", six, {4}, 6), 1.0);
        QCOMPARE(run("top_k_accuracy", six, {5}, 6), 0.0);
    }

    // tf.math.in_top_k: classes tied at the boundary all count as in the top k.
    void top_k_ties_at_the_boundary_count() {
        QCOMPARE(run("top1_accuracy", {0.4f, 0.4f, 0.2f}, {1}, 3), 1.0);
        QCOMPARE(run("top2_accuracy", {0.5f, 0.2f, 0.2f, 0.1f}, {2}, 4), 1.0);
        QCOMPARE(run("top2_accuracy", {0.5f, 0.2f, 0.2f, 0.1f}, {3}, 4), 0.0);
    }

    void single_output_thresholds_at_one_half() {
        const std::vector<float> out{0.9f, 0.2f, 0.5f, 0.51f};
        // Predictions 1, 0, 0 (0.5 is not above), 1.
        QCOMPARE(run("accuracy", out, {1, 0, 0, 1}, 1), 1.0);
        QCOMPARE(run("accuracy", out, {1, 1, 1, 1}, 1), 0.5);
        QCOMPARE(run("top3_accuracy", out, {0, 0, 0, 0}, 1), 0.5);
    }

    void accumulates_until_reset() {
        auto m = lf::make_metric("accuracy");
        QCOMPARE(m->result(), 0.0);  // nothing seen yet
        m->update(kOut.data(), kLabels.data(), 2, 4);      // 1 of 2
        m->update(kOut.data() + 8, kLabels.data() + 2, 2, 4);  // 0 of 2
        QCOMPARE(m->result(), 0.25);
        m->reset();
        QCOMPARE(m->result(), 0.0);
        m->update(kOut.data(), kLabels.data(), 1, 4);
        QCOMPARE(m->result(), 1.0);
    }

    void update_does_not_allocate() {
        for (const char* name : {"accuracy", "top3_accuracy"}) {
            auto m = lf::make_metric(name);
            QCOMPARE(lf_test::allocations_during([&] { m->update(kOut.data(), kLabels.data(), 4, 4); }), 0L);
        }
    }

    void names() {
        QCOMPARE(lf::make_metric("top7_accuracy")->name(), std::string("top7_accuracy"));
        for (const auto& n : lf::metric_names()) QCOMPARE(lf::make_metric(n)->name(), n);
        LF_EXPECT_INPUT_ERROR(lf::make_metric("precision"), "precision", "accuracy", "top_k_accuracy");
        LF_EXPECT_INPUT_ERROR(lf::make_metric("top0_accuracy"), "top0_accuracy");
        LF_EXPECT_INPUT_ERROR(lf::make_metric("topx_accuracy"), "topx_accuracy");
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
