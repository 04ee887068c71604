// data_fit: does a model fit data of a sample shape and class count? The one answer behind the
// trainer's refusals (their texts checked here through fit) and the dataset panel's offers.
#include <QtTest>

#include "graph_builder.h"
#include "layerforge/train/data_fit.h"
#include "layerforge/train/trainer.h"
#include "lf_test_util.h"

namespace {

lf::TensorDataset samples(lf::Shape shape, std::vector<std::string> classes) {
    lf::TensorDataset d;
    d.sample_shape = shape;
    d.images.assign(std::size_t(2 * shape.elements()), 0.5f);
    d.labels = {0, 1};
    d.class_names = std::move(classes);
    return d;
}

}  // namespace

class TestDataFit : public QObject {
    Q_OBJECT

private slots:
    void matching_data_fits() {
        const GraphBuilder mlp = mlp_builder({4}, 8, "relu", 3);
        const lf::DataFit f = lf::data_fit(mlp.graph, lf::analyze(mlp.graph), lf::Shape{4}, 3);
        QCOMPARE(f.input_node, std::string("input_0"));
        QCOMPARE(f.output_node, std::string("softmax_4"));
        QVERIFY(f.input == lf::Shape{4});
        QCOMPARE(f.units, std::int64_t(3));
        QCOMPARE(f.units_node, std::string("dense_3"));  // the Softmax after it keeps the shape
        QVERIFY(f.input_fits() && f.units_fit() && !f.too_few_units());
    }

    void units_against_classes() {
        const lf::Graph g = mlp_builder({4}, 8, "relu", 10).graph;
        const lf::Analysis a = lf::analyze(g);
        QVERIFY(!lf::data_fit(g, a, std::nullopt, 3).units_fit());       // more units: trains, but is likely a mistake
        QVERIFY(!lf::data_fit(g, a, std::nullopt, 3).too_few_units());
        QVERIFY(lf::data_fit(g, a, std::nullopt, 12).too_few_units());   // labels 10 and 11 have no output
        QVERIFY(lf::data_fit(g, a, std::nullopt, 0).units_fit());        // no class list: nothing to check
        const lf::Graph bg = mlp_builder({4}, 8, "relu", 1).graph;
        const lf::Analysis binary = lf::analyze(bg);
        QVERIFY(lf::data_fit(bg, binary, std::nullopt, 2).units_fit());   // one sigmoid unit, two classes
        QVERIFY(!lf::data_fit(bg, binary, std::nullopt, 3).too_few_units());  // as the trainer has always taken it
    }

    void shapes_and_unknowns() {
        GraphBuilder b = mlp_builder({28, 28, 1}, 8, "relu", 3);
        QVERIFY(!lf::data_fit(b.graph, lf::analyze(b.graph), lf::Shape{6, 8, 3}, 3).input_fits());
        QVERIFY(lf::data_fit(b.graph, lf::analyze(b.graph), std::nullopt, 3).input_fits());  // no samples yet
        b.graph.nodes[0].params["shape"] = lf::IntList{};                           // being edited
        const lf::DataFit f = lf::data_fit(b.graph, lf::analyze(b.graph), lf::Shape{28, 28, 1}, 3);
        QVERIFY(!f.input && !f.input_fits());
        QCOMPARE(f.units, std::int64_t(0));  // the output is unknown too: not checked
        QVERIFY(f.units_fit());
        b.add("Dense", {{"units", std::int64_t(2)}}, {"dense_2"});  // a second output
        QVERIFY(lf::data_fit(b.graph, lf::analyze(b.graph), std::nullopt, 3).output_node.empty());
    }

    void trainer_refuses_what_does_not_fit_with_its_texts() {
        lf::Model model(mlp_builder({4}, 8, "relu", 3).graph);
        lf::TrainingConfig c;
        c.epochs = 1;
        c.batch_size = 2;
        lf::Trainer trainer(model, c);
        LF_EXPECT_INPUT_ERROR(trainer.fit(samples(lf::Shape{5}, {}), nullptr),
                              "the training samples have shape (?, 5) but the Input layer expects (?, 4); change the Input shape");
        const lf::TensorDataset five = samples(lf::Shape{4}, {"a", "b", "c", "d", "e"});
        LF_EXPECT_INPUT_ERROR(trainer.evaluate(five),
                              "the output layer has 3 units but the evaluation data has 5 classes; set the last layer's units to 5");
        QCOMPARE(trainer.predict(samples(lf::Shape{4}, {"a", "b"})).size(), std::size_t(6));
    }
};

QTEST_MAIN(TestDataFit)
#include "test_data_fit.moc"
