// lf::ConfusionMatrix and per-class scores on a fixed prediction set worked out by hand, the
// arg max rule (ties, a single binary unit), labels out of range, and logits -> probabilities.
#include <QtTest>

#include <cmath>

#include "layerforge/train/confusion.h"
#include "lf_test_util.h"

using namespace lf;

class TestConfusion : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Three classes, ten samples. Truth / predicted:
    //   0: 0 0 0 1      (3 right, 1 as class 1)
    //   1: 1 1 2        (2 right, 1 as class 2)
    //   2: 2 0 2        (2 right, 1 as class 0)
    void countsAndScores() {
        const std::vector<std::int32_t> truth{0, 0, 0, 0, 1, 1, 1, 2, 2, 2};
        const std::vector<std::int32_t> pred{0, 0, 0, 1, 1, 1, 2, 2, 0, 2};
        std::vector<float> outputs;
        for (std::int32_t p : pred)
            for (int c = 0; c < 3; ++c) outputs.push_back(c == p ? 0.7f : 0.15f);
        ConfusionMatrix m(3);
        add_predictions(m, outputs.data(), truth.data(), 10, 3);
        const std::int64_t expected[3][3] = {{3, 1, 0}, {0, 2, 1}, {1, 0, 2}};
        for (int t = 0; t < 3; ++t)
            for (int p = 0; p < 3; ++p) QCOMPARE(m.at(t, p), expected[t][p]);
        QCOMPARE(m.total(), std::int64_t(10));
        QCOMPARE(m.correct(), std::int64_t(7));
        LF_COMPARE_NEAR(m.accuracy(), 0.7, 1e-12);
        QCOMPARE(m.row_total(0), std::int64_t(4));
        QCOMPARE(m.column_total(0), std::int64_t(4));
        LF_COMPARE_NEAR(m.row_fraction(0, 1), 0.25, 1e-12);

        const std::vector<ClassScores> s = class_scores(m);
        QCOMPARE(s.size(), std::size_t(3));
        // class 0: precision 3/4, recall 3/4; class 1: 2/3, 2/3; class 2: 2/3, 2/3
        LF_COMPARE_NEAR(s[0].precision, 0.75, 1e-12);
        LF_COMPARE_NEAR(s[0].recall, 0.75, 1e-12);
        LF_COMPARE_NEAR(s[0].f1, 0.75, 1e-12);
        LF_COMPARE_NEAR(s[1].precision, 2.0 / 3, 1e-12);
        LF_COMPARE_NEAR(s[2].recall, 2.0 / 3, 1e-12);
        QCOMPARE(s[0].support, std::int64_t(4));
        QCOMPARE(s[1].support, std::int64_t(3));
        const ClassScores mean = macro_average(s);
        LF_COMPARE_NEAR(mean.f1, (0.75 + 2.0 / 3 + 2.0 / 3) / 3, 1e-12);
        QCOMPARE(mean.support, std::int64_t(10));
    }

    // Precision and recall that differ, and classes never predicted or never present.
    void unevenAndEmptyClasses() {
        ConfusionMatrix m(3);
        m.add(0, 0, 6);
        m.add(1, 0, 2);  // class 1 is never predicted
        m.add(0, 1, 0);
        const std::vector<ClassScores> s = class_scores(m);
        LF_COMPARE_NEAR(s[0].precision, 6.0 / 8, 1e-12);
        LF_COMPARE_NEAR(s[0].recall, 1.0, 1e-12);
        LF_COMPARE_NEAR(s[0].f1, 2 * 0.75 / 1.75, 1e-12);
        QCOMPARE(s[1].precision, 0.0);
        QCOMPARE(s[1].f1, 0.0);
        QCOMPARE(s[2].support, std::int64_t(0));  // no samples: left out of the macro average
        LF_COMPARE_NEAR(macro_average(s).recall, 0.5, 1e-12);
        QCOMPARE(m.row_fraction(2, 2), 0.0);
        m.add(3, 0);   // out of range: ignored
        m.add(-1, 0);
        QCOMPARE(m.total(), std::int64_t(8));
    }

    void predictedClassRule() {
        const float tie[3] = {0.4f, 0.4f, 0.2f};
        QCOMPARE(predicted_class(tie, 3), 0);
        const float binary_yes[1] = {0.8f}, binary_no[1] = {0.3f};
        QCOMPARE(predicted_class(binary_yes, 1), 1);
        QCOMPARE(predicted_class(binary_no, 1), 0);
        QCOMPARE(binary_probabilities(0.8f)[0], 1.f - 0.8f);
    }

    void logitsBecomeProbabilities() {
        float logits[3] = {1.f, 2.f, 3.f};
        to_probabilities(logits, 3);
        const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
        LF_COMPARE_NEAR(logits[2], std::exp(3.0) / z, 1e-6);
        LF_COMPARE_NEAR(logits[0] + logits[1] + logits[2], 1.0, 1e-6);
        float probs[2] = {0.25f, 0.75f};  // already probabilities: unchanged
        to_probabilities(probs, 2);
        QCOMPARE(probs[1], 0.75f);
    }
};

QTEST_APPLESS_MAIN(TestConfusion)
#include "test_confusion.moc"
