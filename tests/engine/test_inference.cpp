// lf::Inference: evaluate and predict without training allocate no optimizer state (a Trainer
// with the same configuration allocates Adam's m and v), give the Trainer's numbers, and name
// what is wrong in a bad configuration or data.
#include <QtTest>

#include "graph_builder.h"
#include "synthetic_data.h"
#include "layerforge/core/memory.h"
#include "layerforge/graph/model.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

namespace {

// Input(4) -> Flatten -> Dense(8, relu) -> Dense(3) -> Softmax, as in test_trainer.
lf::Model small_model() {
    lf::Model m(mlp_builder({4}, 8, "relu", 3).graph);
    m.init_weights(1);
    return m;
}

lf::TrainingConfig adam_config() {
    lf::TrainingConfig c;  // Adam by default: two state slots per weight
    c.batch_size = 16;     // 40 samples: two full batches and a remainder
    c.metrics = {"accuracy", "sparse_categorical_accuracy"};
    return c;
}

}  // namespace

class TestInference : public QObject {
    Q_OBJECT

private slots:
    // 1. Predict and evaluate reserve nothing for an optimizer; the same calls through a
    //    Trainer do, so the account is the one that would show it.
    void allocates_no_optimizer_state() {
        lf::Model model = small_model();
        const lf::TensorDataset data = synthetic(40);
        const std::size_t before = lf::memory_in_use().optimizer_state;
        {
            lf::Inference inference(model, adam_config());
            QCOMPARE(inference.evaluate(data).samples, std::int64_t(40));
            QCOMPARE(inference.predict(data).size(), std::size_t(40 * 3));
            QCOMPARE(lf::memory_in_use().optimizer_state, before);
            QVERIFY(lf::memory_in_use().activations > 0);  // its plans are counted: the account is live
        }
        lf::Trainer trainer(model, adam_config());
        QCOMPARE(lf::memory_in_use().optimizer_state, before + 2 * model.weights().size() * sizeof(float));
    }

    // 2. The same numbers as the Trainer's evaluate and predict on the same weights.
    void matches_the_trainer() {
        lf::Model model = small_model();
        const lf::TensorDataset data = synthetic(40, 7);
        lf::Inference inference(model, adam_config());
        lf::Trainer trainer(model, adam_config());
        const lf::EvalResult a = inference.evaluate(data), b = trainer.evaluate(data);
        QCOMPARE(a.samples, b.samples);
        QCOMPARE(a.metrics, b.metrics);
        QCOMPARE(a.metrics.size(), std::size_t(3));  // loss and both metrics
        QCOMPARE(inference.predict(data), trainer.predict(data));
        // A second evaluation starts its metrics afresh.
        QCOMPARE(inference.evaluate(data).metrics, a.metrics);
    }

    // 3. Configuration and data errors name what is wrong; the optimizer is never read.
    void errors_name_the_field() {
        lf::Model model = small_model();
        auto inference_with = [&](const std::function<void(lf::TrainingConfig&)>& change) {
            lf::TrainingConfig c;
            change(c);
            lf::Inference i(model, c);
        };
        LF_EXPECT_INPUT_ERROR(inference_with([](auto& c) { c.loss = "Hinge"; }), "training.loss", "Hinge");
        LF_EXPECT_INPUT_ERROR(inference_with([](auto& c) { c.metrics = {"f1"}; }), "training.metrics", "f1");
        LF_EXPECT_INPUT_ERROR(inference_with([](auto& c) { c.batch_size = 0; }), "training.batch_size");
        inference_with([](auto& c) { c.optimizer.type = "Adagrad"; });  // not built, so not an error

        lf::Inference inference(model, lf::TrainingConfig{});
        lf::TensorDataset wrong_shape = synthetic(10);
        wrong_shape.sample_shape = lf::Shape{2, 2};
        LF_EXPECT_INPUT_ERROR(inference.evaluate(wrong_shape), "evaluation", "Input");
        LF_EXPECT_INPUT_ERROR(inference.predict(wrong_shape), "prediction", "Input");
        lf::TensorDataset big_label = synthetic(10);
        big_label.labels[3] = 3;  // the output layer has 3 units
        LF_EXPECT_INPUT_ERROR(inference.evaluate(big_label), "evaluation", "label 3");
    }

    // 4. The configured memory limit holds for inference plans too, and counts no optimizer.
    void memory_limit_refuses_the_plan() {
        lf::Model model = small_model();
        lf::TrainingConfig c = adam_config();
        c.memory_limit_mb = 1;
        c.batch_size = 50000;  // about 3.6 MB of activations
        lf::Inference inference(model, c);
        try {
            inference.predict(synthetic(50000));
            QFAIL("the plan was built over the limit");
        } catch (const lf::Error& e) {
            QCOMPARE(e.kind(), lf::ErrorKind::Input);
            const std::string why = e.what();
            QVERIFY2(why.find("evaluation needs about") == 0 && why.find("memory limit is 1 MB") != std::string::npos &&
                         why.find("optimizer state 0.0 MB") != std::string::npos,
                     why.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestInference)
#include "test_inference.moc"
