// Finite-difference checks of every layer's backward pass (inputs and parameters).
#include <QtTest>

#include "graph_builder.h"
#include "gradcheck.h"

using lf::IntList;

class TestLayerGradients : public QObject {
    Q_OBJECT

    void check(const lf::Graph& g, std::int64_t batch = 3) {
        lf::Model model(g);
        GradCheck gc(model, batch);
        gc.run();
    }

private slots:
    void dense_with_each_activation_data() {
        QTest::addColumn<QString>("activation");
        for (const char* a : {"linear", "relu", "sigmoid", "tanh", "softmax", "gelu", "elu", "swish", "exponential",
                              "hard_sigmoid", "hard_swish"})
            QTest::newRow(a) << a;
    }
    void dense_with_each_activation() {
        QFETCH(QString, activation);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6}}});
        b.add("Dense", {{"units", std::int64_t(4)}, {"activation", activation.toStdString()}}, {in});
        check(b.graph);
    }
    void dense_without_bias() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{5}}});
        b.add("Dense", {{"units", std::int64_t(3)}, {"use_bias", false}}, {in});
        check(b.graph);
    }
    void flatten_then_dense() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 3, 2}}});
        auto f = b.add("Flatten", {}, {in});
        b.add("Dense", {{"units", std::int64_t(3)}}, {f});
        check(b.graph);
    }
    void reshape_then_dense() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{12}}});
        auto d = b.add("Dense", {{"units", std::int64_t(12)}}, {in});
        auto r = b.add("Reshape", {{"target_shape", IntList{3, -1}}}, {d});
        b.add("Activation", {{"activation", std::string("tanh")}}, {r});
        check(b.graph);
    }
    void activation_layers_data() {
        QTest::addColumn<QString>("type");
        for (const char* t : {"ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax"}) QTest::newRow(t) << t;
    }
    void activation_layers() {
        QFETCH(QString, type);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 5}}});
        b.add(type.toStdString(), {}, {in});
        check(b.graph);
    }
    // Keras ReLU parameters: ReLU6 (oneDNN clip_v2), and cap + threshold + slope together (a loop).
    void relu_parameters_data() {
        QTest::addColumn<double>("max_value");
        QTest::addColumn<double>("negative_slope");
        QTest::addColumn<double>("threshold");
        QTest::newRow("relu6-like cap") << 0.5 << 0.0 << 0.0;
        QTest::newRow("leaky with cap") << 0.65 << 0.2 << 0.0;
        QTest::newRow("threshold only") << 0.0 << 0.0 << 0.3;
        QTest::newRow("cap, slope, threshold") << 0.7 << 0.25 << 0.2;
    }
    void relu_parameters() {
        QFETCH(double, max_value);
        QFETCH(double, negative_slope);
        QFETCH(double, threshold);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{3, 5}}});
        b.add("ReLU", {{"max_value", max_value}, {"negative_slope", negative_slope}, {"threshold", threshold}}, {in});
        check(b.graph);
    }
    void gelu_approximate() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{7}}});
        b.add("GELU", {{"approximate", true}}, {in});
        check(b.graph);
    }
    void add_with_fan_out() {
        // d1 feeds two layers: its gradient is the sum of both consumers' contributions.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4}}});
        auto d1 = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("tanh")}}, {in});
        auto d2 = b.add("Dense", {{"units", std::int64_t(3)}}, {d1});
        auto d3 = b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("sigmoid")}}, {d1});
        b.add("Add", {}, {d2, d3, d2});
        check(b.graph);
    }
    void concatenate_data() {
        QTest::addColumn<qint64>("axis");
        QTest::newRow("last") << qint64(-1);
        QTest::newRow("first") << qint64(1);
        QTest::newRow("middle") << qint64(2);
    }
    void concatenate() {
        QFETCH(qint64, axis);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 2, 3}}});
        auto t = b.add("Tanh", {}, {in});
        auto s = b.add("Sigmoid", {}, {in});
        auto c = b.add("Concatenate", {{"axis", std::int64_t(axis)}}, {t, s, in});
        auto f = b.add("Flatten", {}, {c});
        b.add("Dense", {{"units", std::int64_t(2)}}, {f});
        check(b.graph);
    }
    void multiply_with_a_channel_scale() {
        // Squeeze-and-excitation: x * sigmoid(dense(pool(x))) as (H, W, C) * (1, 1, C), and a
        // same-shape product with fan-out.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{2, 3, 4}}});
        auto t = b.add("Tanh", {}, {in});
        auto pool = b.add("GlobalAveragePooling2D", {}, {t});
        auto d = b.add("Dense", {{"units", std::int64_t(4)}, {"activation", std::string("sigmoid")}}, {pool});
        auto r = b.add("Reshape", {{"target_shape", IntList{1, 1, 4}}}, {d});
        auto scaled = b.add("Multiply", {}, {t, r});
        auto sq = b.add("Multiply", {}, {scaled, in, scaled});
        auto f = b.add("Flatten", {}, {sq});
        b.add("Dense", {{"units", std::int64_t(2)}}, {f});
        check(b.graph);
    }
    void dropout_gradient_follows_its_mask() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{1000}}});
        b.add("Dropout", {{"rate", 0.3}}, {in});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train, .seed = 3, .input_grads = true});
        for (int i = 0; i < 2000; ++i) plan.input()[i] = 1.f + float(i % 7);
        plan.forward();
        int dropped = 0;
        for (int i = 0; i < 2000; ++i) {
            float ratio = plan.output()[i] / plan.input()[i];
            if (ratio == 0.f) ++dropped;
            else QVERIFY(std::abs(ratio - 1.f / 0.7f) < 1e-5f);
            plan.output_grad()[i] = 2.f;
        }
        QVERIFY2(dropped > 520 && dropped < 680, qPrintable(QString::number(dropped)));
        plan.backward();
        for (int i = 0; i < 2000; ++i)
            QCOMPARE(plan.input_grad()[i], 2.f * plan.output()[i] / plan.input()[i]);
    }
    // A data-parallel rank's plan for rows [first_row, first_row + batch) of the global batch
    // drops what one plan of the whole batch drops in those rows, step after step.
    void dropout_masks_follow_the_rows_place_in_the_global_batch() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{50}}});
        b.add("Dropout", {{"rate", 0.4}}, {in});
        lf::Model model(b.graph);
        lf::test::DevicePlan whole(model, {.batch = 5, .mode = lf::PlanMode::Train, .seed = 7});
        lf::test::DevicePlan first(model, {.batch = 2, .mode = lf::PlanMode::Train, .seed = 7});
        lf::test::DevicePlan rest(model, {.batch = 3, .first_row = 2, .mode = lf::PlanMode::Train, .seed = 7});
        for (int step = 0; step < 3; ++step) {
            for (int i = 0; i < 250; ++i) whole.input()[i] = 1.f;
            for (int i = 0; i < 100; ++i) first.input()[i] = 1.f;
            for (int i = 0; i < 150; ++i) rest.input()[i] = 1.f;
            whole.forward(), first.forward(), rest.forward();
            int dropped = 0;
            for (int i = 0; i < 250; ++i) {
                const float part = i < 100 ? first.output()[i] : rest.output()[i - 100];
                QCOMPARE(part, whole.output()[i]);
                dropped += whole.output()[i] == 0.f;
            }
            QVERIFY2(dropped > 60 && dropped < 140, qPrintable(QString::number(dropped)));
        }
    }
    void dropout_is_identity_at_inference() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{10}}});
        b.add("Dropout", {{"rate", 0.5}}, {in});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 1, .mode = lf::PlanMode::Infer});
        for (int i = 0; i < 10; ++i) plan.input()[i] = float(i);
        plan.forward();
        for (int i = 0; i < 10; ++i) QCOMPARE(plan.output()[i], float(i));
    }
};

QTEST_APPLESS_MAIN(TestLayerGradients)
#include "test_layer_gradients.moc"
