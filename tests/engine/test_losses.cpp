#include <QtTest>

#include <cmath>
#include <vector>

#include "alloc_counter.h"
#include "layerforge/train/loss.h"
#include "lf_test_util.h"

namespace {

struct Batch {
    std::vector<float> x;  // model output, or the softmax input when fused
    std::vector<std::int32_t> labels;
    std::int64_t c = 1;
    bool fused = false;    // x are logits feeding a Softmax output node
    std::int64_t n() const { return static_cast<std::int64_t>(labels.size()); }
};

std::vector<float> softmax_rows(const std::vector<float>& z, std::int64_t c) {
    std::vector<float> s(z.size());
    for (std::size_t r = 0; r < z.size(); r += c) {
        double mx = z[r], sum = 0;
        for (std::int64_t j = 1; j < c; ++j) mx = std::max(mx, double(z[r + j]));
        for (std::int64_t j = 0; j < c; ++j) sum += std::exp(z[r + j] - mx);
        for (std::int64_t j = 0; j < c; ++j) s[r + j] = float(std::exp(z[r + j] - mx) / sum);
    }
    return s;
}

// Runs the loss the way the trainer will: with logits set, the output is their softmax.
double eval(const lf::Loss& loss, const Batch& b, float* grad) {
    std::vector<float> probs = b.fused ? softmax_rows(b.x, b.c) : std::vector<float>{};
    lf::LossBatch lb;
    lb.output = b.fused ? probs.data() : b.x.data();
    lb.logits = b.fused ? b.x.data() : nullptr;
    lb.labels = b.labels.data();
    lb.n = b.n();
    lb.c = b.c;
    return loss.compute(lb, grad);
}

double eval(const std::string& type, bool from_logits, const Batch& b) {
    return eval(*lf::make_loss(type, {{"from_logits", from_logits}}), b, nullptr);
}

// Central differences on every input (fused: on the logits), against the analytic gradient.
// Inputs are float32, the loss sums in double, so h = 1e-3 leaves mostly O(h^2) error.
void check_gradient(const lf::Loss& loss, Batch b) {
    std::vector<float> grad(b.x.size());
    eval(loss, b, grad.data());
    for (std::size_t i = 0; i < b.x.size(); ++i) {
        const float saved = b.x[i], hi = saved + 1e-3f, lo = saved - 1e-3f;
        b.x[i] = hi;
        const double f_hi = eval(loss, b, nullptr);
        b.x[i] = lo;
        const double f_lo = eval(loss, b, nullptr);
        b.x[i] = saved;
        const double fd = (f_hi - f_lo) / (double(hi) - double(lo));
        QVERIFY2(std::abs(fd - grad[i]) <= 5e-4 * std::max(1.0, std::abs(fd)),
                 qPrintable(QString("%1 input %2: analytic %3, numeric %4")
                                .arg(QString::fromStdString(loss.name())).arg(i).arg(grad[i]).arg(fd)));
    }
}

// Two samples of three classes; rows need not sum to 1 so the rescaling term is exercised.
const Batch kProbs{{0.2f, 0.5f, 0.4f, 0.3f, 0.35f, 0.25f}, {1, 2}, 3};
const Batch kLogits{{1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 4.0f}, {0, 1}, 3};
const Batch kBinary{{0.8f, 0.1f, 0.35f}, {1, 0, 1}, 1};
const Batch kBinaryLogits{{0.3f, -2.0f, 1.5f}, {1, 0, 0}, 1};

}  // namespace

class TestLosses : public QObject {
    Q_OBJECT
private slots:
    // Reference values: tests/fixtures/train_reference.py (output in train_reference.txt).
    void values_match_keras_reference() {
        const Batch p{{0.2f, 0.7f, 0.1f, 0.5f, 0.3f, 0.2f}, {1, 2}, 3};
        LF_COMPARE_NEAR(eval("SparseCategoricalCrossentropy", false, p), 0.983056432976, 1e-6);
        LF_COMPARE_NEAR(eval("CategoricalCrossentropy", false, p), 0.983056432976, 1e-6);
        LF_COMPARE_NEAR(eval("BinaryCrossentropy", false, p), 0.557406512064, 1e-6);
        LF_COMPARE_NEAR(eval(*lf::make_loss("MeanSquaredError"), p, nullptr), 0.186666668504, 1e-7);

        // Row 1 sums to 1.2 (Keras rescales it); row 2 is one-hot on the wrong class (clipped to 1e-7).
        // The two losses differ by the order of clip and rescale, as in the Keras TF backend.
        const Batch u{{0.2f, 0.4f, 0.6f, 0.0f, 1.0f, 0.0f}, {1, 0}, 3};
        LF_COMPARE_NEAR(eval("CategoricalCrossentropy", false, u), 8.60835397602, 1e-5);
        LF_COMPARE_NEAR(eval("SparseCategoricalCrossentropy", false, u), 8.60835402602, 1e-5);

        LF_COMPARE_NEAR(eval("SparseCategoricalCrossentropy", true, kLogits), 2.97193776478, 1e-6);
        LF_COMPARE_NEAR(eval("CategoricalCrossentropy", true, kLogits), 2.97193776478, 1e-6);
        LF_COMPARE_NEAR(eval("BinaryCrossentropy", true, kLogits), 1.71571094163, 1e-6);

        // c == 1: the label itself is the target.
        const Batch b{{0.8f, 0.1f}, {1, 0}, 1};
        LF_COMPARE_NEAR(eval("BinaryCrossentropy", false, b), 0.164252026863, 1e-6);
        LF_COMPARE_NEAR(eval(*lf::make_loss("MeanSquaredError"), b, nullptr), 0.0249999977648, 1e-7);
        const Batch bz{{0.3f, -2.0f}, {1, 0}, 1};
        LF_COMPARE_NEAR(eval("BinaryCrossentropy", true, bz), 0.340641625219, 1e-6);
    }

    void simple_values_by_hand() {
        // One sample, p_label = 0.25: -log(0.25) = 1.386294361.
        const Batch one{{0.25f, 0.75f}, {0}, 2};
        LF_COMPARE_NEAR(eval("SparseCategoricalCrossentropy", false, one), 1.386294361, 1e-6);
        // MSE against one-hot [1, 0]: ((0.25 - 1)^2 + 0.75^2) / 2 = 0.5625.
        LF_COMPARE_NEAR(eval(*lf::make_loss("MeanSquaredError"), one, nullptr), 0.5625, 1e-7);
        // Equal logits over 4 classes: log(4).
        const Batch flat{{0.f, 0.f, 0.f, 0.f}, {3}, 4};
        LF_COMPARE_NEAR(eval("SparseCategoricalCrossentropy", true, flat), std::log(4.0), 1e-7);
    }

    void gradients_match_finite_differences() {
        for (const char* type : {"SparseCategoricalCrossentropy", "CategoricalCrossentropy"}) {
            check_gradient(*lf::make_loss(type), kProbs);
            check_gradient(*lf::make_loss(type, {{"from_logits", true}}), kLogits);
            Batch fused = kLogits;
            fused.fused = true;
            check_gradient(*lf::make_loss(type), fused);
        }
        check_gradient(*lf::make_loss("BinaryCrossentropy"), kProbs);
        check_gradient(*lf::make_loss("BinaryCrossentropy"), kBinary);
        check_gradient(*lf::make_loss("BinaryCrossentropy", {{"from_logits", true}}), kLogits);
        check_gradient(*lf::make_loss("BinaryCrossentropy", {{"from_logits", true}}), kBinaryLogits);
        check_gradient(*lf::make_loss("MeanSquaredError"), kProbs);
        check_gradient(*lf::make_loss("MeanSquaredError"), kBinary);
    }

    // The fused gradient must equal the probability-space gradient pushed back through the
    // softmax Jacobian: dz_k = s_k (dp_k - sum_j dp_j s_j).
    void fused_gradient_equals_softmax_chain() {
        for (const char* type : {"SparseCategoricalCrossentropy", "CategoricalCrossentropy"}) {
            auto loss = lf::make_loss(type);
            Batch fused = kLogits;
            fused.fused = true;
            std::vector<float> dz(fused.x.size());
            const double fused_loss = eval(*loss, fused, dz.data());

            const Batch probs{softmax_rows(kLogits.x, 3), kLogits.labels, 3};
            std::vector<float> dp(probs.x.size());
            LF_COMPARE_NEAR(eval(*loss, probs, dp.data()), fused_loss, 1e-6);
            for (std::size_t r = 0; r < dp.size(); r += 3) {
                double dot = 0;
                for (int j = 0; j < 3; ++j) dot += dp[r + j] * probs.x[r + j];
                for (int j = 0; j < 3; ++j) LF_COMPARE_NEAR(dz[r + j], probs.x[r + j] * (dp[r + j] - dot), 1e-6);
            }
        }
    }

    // Softmax of [1000, 0, -1000] is [1, 0, 0] in float: the probabilities alone would give the
    // clipped -log(1e-7) = 16.1; the fused path gives the true loss 1000 and (softmax - onehot)/n.
    void fused_cross_entropy_is_stable_for_huge_logits() {
        Batch b{{1000.f, 0.f, -1000.f}, {1}, 3, true};
        auto loss = lf::make_loss("CategoricalCrossentropy");
        std::vector<float> g(3);
        const double value = eval(*loss, b, g.data());
        QVERIFY(std::isfinite(value));
        LF_COMPARE_NEAR(value, 1000.0, 1e-9);
        LF_COMPARE_NEAR(g[0], 1.0, 1e-7);
        LF_COMPARE_NEAR(g[1], -1.0, 1e-7);
        LF_COMPARE_NEAR(g[2], 0.0, 1e-7);
        b.fused = false;
        b.x = softmax_rows(b.x, 3);
        LF_COMPARE_NEAR(eval(*loss, b, nullptr), -std::log(1e-7), 1e-3);
    }

    void fusion_only_for_categorical_on_probabilities() {
        float out[2] = {0.5f, 0.5f}, z[2] = {0.f, 0.f};
        std::int32_t label[1] = {0};
        lf::LossBatch with{out, z, label, 1, 2}, without{out, nullptr, label, 1, 2};
        for (const char* type : {"SparseCategoricalCrossentropy", "CategoricalCrossentropy"}) {
            QVERIFY(lf::make_loss(type)->fuses_softmax(with));
            QVERIFY(!lf::make_loss(type)->fuses_softmax(without));
            QVERIFY(!lf::make_loss(type, {{"from_logits", true}})->fuses_softmax(with));
        }
        QVERIFY(!lf::make_loss("BinaryCrossentropy")->fuses_softmax(with));
        QVERIFY(!lf::make_loss("MeanSquaredError")->fuses_softmax(with));
    }

    void compute_does_not_allocate() {
        std::vector<float> probs = softmax_rows(kLogits.x, 3), grad(probs.size());
        lf::LossBatch b{probs.data(), kLogits.x.data(), kLogits.labels.data(), 2, 3};
        for (const auto& type : lf::loss_types()) {
            for (bool logits : {false, true}) {
                auto loss = lf::make_loss(type);
                b.logits = logits ? kLogits.x.data() : nullptr;
                QCOMPARE(lf_test::allocations_during([&] { loss->compute(b, grad.data()); }), 0L);
            }
        }
    }

    void names_and_types() {
        QCOMPARE(lf::loss_types().size(), std::size_t(4));
        for (const auto& type : lf::loss_types()) QCOMPARE(lf::make_loss(type)->name(), type);
    }

    void bad_input_is_an_input_error() {
        LF_EXPECT_INPUT_ERROR(lf::make_loss("Hinge"), "Hinge", "SparseCategoricalCrossentropy");
        LF_EXPECT_INPUT_ERROR(lf::make_loss("CategoricalCrossentropy", {{"reduction", std::string("sum")}}),
                              "CategoricalCrossentropy", "reduction");
        LF_EXPECT_INPUT_ERROR(lf::make_loss("MeanSquaredError", {{"from_logits", true}}), "MeanSquaredError",
                              "from_logits");
        LF_EXPECT_INPUT_ERROR(lf::make_loss("BinaryCrossentropy", {{"from_logits", std::int64_t(1)}}),
                              "BinaryCrossentropy", "from_logits");
        const Batch bad{{0.5f, 0.5f}, {2}, 2};
        LF_EXPECT_INPUT_ERROR(eval("SparseCategoricalCrossentropy", false, bad), "label 2");
        const Batch bad_binary{{0.5f}, {3}, 1};
        LF_EXPECT_INPUT_ERROR(eval("BinaryCrossentropy", false, bad_binary), "label 3");
    }
};

QTEST_APPLESS_MAIN(TestLosses)
#include "test_losses.moc"
