// The start-up registries: layer specs never move while more are added (an analysis keeps
// pointers to them), loss and metric tables belong to train with plugins adding to them, and
// after freeze_registries() nothing more is added: every way in throws a clear lf::Error.
// Freezing is for the whole process, so the slots run in order: additions first, then freeze.
#include <QtTest>

#include <string>

#include "graph_builder.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/plugins/registrar.h"
#include "lf_test_util.h"

namespace {

lf::LayerSpec identity_spec(const std::string& type) {
    lf::LayerSpec s;
    s.type = type;
    s.category = "Test";
    s.view = true;  // aliases its input: needs no kernel
    s.infer = [](const lf::Params&, const std::vector<lf::Shape>& in) { return lf::LayerInfo{.output = in[0]}; };
    return s;
}

class ZeroLoss : public lf::Loss {
public:
    std::string name() const override { return "TestZeroLoss"; }
    double compute(const lf::LossBatch&, float*) const override { return 0; }
};

lf::LossSpec zero_loss(const std::string& type) {
    return {.type = type, .help = "", .make = [](const lf::Params&) { return std::make_unique<ZeroLoss>(); }};
}

}  // namespace

class TestRegistries : public QObject {
    Q_OBJECT

private slots:
    void layer_specs_stay_put_while_plugins_add_theirs() {
        lf::LayerRegistry& reg = lf::LayerRegistry::instance();
        QVERIFY(!reg.frozen());
        const lf::LayerSpec* dense = reg.find("Dense");
        QVERIFY(dense);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4}}});
        b.add("Dense", {{"units", std::int64_t(3)}}, {in});
        const lf::Analysis before = lf::analyze(b.graph);
        QVERIFY(before.ok());
        const lf::LayerSpec* kept = before.nodes.at(before.order.back()).spec;
        QCOMPARE(kept, dense);
        // Far more than a vector's spare capacity: a std::vector would have moved every spec.
        for (int i = 0; i < 200; ++i) reg.add(identity_spec("TestIdentity" + std::to_string(i)));
        QCOMPARE(reg.find("Dense"), dense);
        QCOMPARE(kept->type, std::string("Dense"));
        QCOMPARE(&reg.all().front(), reg.find(reg.all().front().type));
        QVERIFY(reg.find("TestIdentity199"));
    }

    void a_duplicate_layer_type_is_refused() {
        LF_EXPECT_RUNTIME_ERROR(lf::LayerRegistry::instance().add(identity_spec("Dense")), "'Dense'", "registered twice");
    }

    void train_owns_the_loss_and_metric_tables() {
        lf::add_loss(zero_loss("TestAddedLoss"));
        QVERIFY(lf::find_added_loss("TestAddedLoss"));
        QVERIFY(!lf::find_added_loss("MeanSquaredError"));  // a built-in, not an added one
        QCOMPARE(lf::make_loss("TestAddedLoss")->name(), std::string("TestZeroLoss"));
        QCOMPARE(lf::loss_types().back(), std::string("TestAddedLoss"));
        LF_EXPECT_INPUT_ERROR(lf::add_loss(zero_loss("TestAddedLoss")), "loss 'TestAddedLoss'", "twice");
        LF_EXPECT_INPUT_ERROR(lf::add_loss(zero_loss("BinaryCrossentropy")), "twice");
        LF_EXPECT_INPUT_ERROR(lf::add_metric({.name = "top7_accuracy", .help = "", .make = nullptr}), "twice");
    }

    void nothing_is_added_after_the_freeze() {
        QVERIFY(!lf::registries_frozen());
        lf::freeze_registries();
        QVERIFY(lf::registries_frozen());
        QVERIFY(lf::LayerRegistry::instance().frozen() && lf::losses_frozen() && lf::metrics_frozen());
        LF_EXPECT_RUNTIME_ERROR(lf::LayerRegistry::instance().add(identity_spec("TestTooLate")), "layer type 'TestTooLate'",
                                "frozen", "load plugins");
        LF_EXPECT_RUNTIME_ERROR(lf::add_loss(zero_loss("TestTooLateLoss")), "frozen");
        LF_EXPECT_RUNTIME_ERROR(lf::add_metric({.name = "test_too_late", .help = "", .make = nullptr}), "frozen");
        QVERIFY(!lf::LayerRegistry::instance().find("TestTooLate"));
        QVERIFY(!lf::find_added_loss("TestTooLateLoss"));

        lf::PluginRegistrar late("Late");
        late.add_layer({identity_spec("TestLateLayer"), nullptr});
        late.add_loss(zero_loss("TestLateLoss"));
        LF_EXPECT_INPUT_ERROR(late.commit(), "plugin 'Late'", "start-up", "frozen");
        QVERIFY(!lf::LayerRegistry::instance().find("TestLateLayer"));
        QVERIFY(!lf::find_added_loss("TestLateLoss"));
        QVERIFY(lf::registered_plugins().empty());
    }

    void reading_goes_on_after_the_freeze() {
        QVERIFY(lf::LayerRegistry::instance().find("Conv2D"));
        QCOMPARE(lf::make_loss("TestAddedLoss")->name(), std::string("TestZeroLoss"));
        QCOMPARE(lf::make_metric("accuracy")->name(), std::string("accuracy"));
    }
};

QTEST_APPLESS_MAIN(TestRegistries)
#include "test_registries.moc"
