// Sweeps without training: parameter parsing, grid and random expansion, trial settings written
// into the project (and refused with the parameter named), the median stopping rule, and the
// store's sweep tables (a migrated store, trial updates, a deleted trial run).
#include <QtTest>

#include <cmath>
#include <set>

#include "layerforge/core/error.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"
#include "layerforge/sweep/sweep.h"
#include "layerforge/sweep/sweep_runner.h"

namespace {

lf::Project mlp() { return lf::load_project(qEnvironmentVariable("LF_SOURCE_DIR").toStdString() + "/resources/templates/fashion_mlp.lfproj"); }

// The message of the lf::Error `f` throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const lf::Error& e) {
        return e.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void parameters_parse_lists_and_ranges() {
        lf::SweepParam p = lf::parse_sweep_param("learning_rate=1e-3,3e-4");
        QCOMPARE(p.name, std::string("learning_rate"));
        QCOMPARE(p.kind, lf::SweepParam::Kind::List);
        QCOMPARE(p.values.size(), std::size_t(2));
        QCOMPARE(p.values[1].get<double>(), 3e-4);
        p = lf::parse_sweep_param("batch_size=32,64");
        QVERIFY(p.values[0].is_number_integer());
        p = lf::parse_sweep_param("optimizer=Adam,SGD");
        QCOMPARE(p.values[1].get<std::string>(), std::string("SGD"));
        p = lf::parse_sweep_param("learning_rate=log:1e-4..1e-2");
        QCOMPARE(p.kind, lf::SweepParam::Kind::Log);
        QCOMPARE(p.low, 1e-4);
        QCOMPARE(p.high, 1e-2);
        p = lf::parse_sweep_param("dense1.units=int:32..256");
        QCOMPARE(p.kind, lf::SweepParam::Kind::Integer);

        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate"); }), "write NAME=V1,V2"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate="); }), "learning_rate: an empty value"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate=1e-3,,1e-4"); }), "an empty value"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate=log:1e-2..1e-4"); }), "is empty"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate=log:0..1"); }), "must lie above 0"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("dropout.rate=lin:a..1"); }), "'a' is not a number"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("units=int:1.5..4"); }), "takes integers"));
        QVERIFY(mentions(error_of([] { lf::parse_sweep_param("learning_rate=log:1e-4"); }), "LOW..HIGH"));
    }

    void grid_is_every_combination_first_slowest() {
        const auto trials = lf::grid_trials({lf::parse_sweep_param("learning_rate=1e-3,3e-4"),
                                             lf::parse_sweep_param("batch_size=32,64,128")});
        QCOMPARE(trials.size(), std::size_t(6));
        QCOMPARE(trials[0].dump(), std::string(R"({"learning_rate":0.001,"batch_size":32})"));
        QCOMPARE(trials[2].dump(), std::string(R"({"learning_rate":0.001,"batch_size":128})"));
        QCOMPARE(trials[3].dump(), std::string(R"({"learning_rate":0.0003,"batch_size":32})"));
        QVERIFY(mentions(error_of([] { lf::grid_trials({lf::parse_sweep_param("learning_rate=log:1e-4..1e-2")}); }),
                         "ranges are for --random"));
        QVERIFY(mentions(error_of([] {
                             lf::grid_trials({lf::parse_sweep_param("seed=1"), lf::parse_sweep_param("seed=2")});
                         }),
                         "seed is given twice"));
        QVERIFY(mentions(error_of([] { lf::grid_trials({}); }), "at least one parameter"));
    }

    void random_draws_stay_in_range_and_repeat_with_the_seed() {
        const std::vector<lf::SweepParam> params{lf::parse_sweep_param("learning_rate=log:1e-4..1e-2"),
                                                 lf::parse_sweep_param("dense.units=int:16..20"),
                                                 lf::parse_sweep_param("optimizer=Adam,SGD,RMSprop")};
        const auto a = lf::random_trials(params, 400, 7);
        QCOMPARE(a.size(), std::size_t(400));
        int below_1e3 = 0;
        std::set<std::int64_t> units;
        std::set<std::string> optimizers;
        for (const auto& t : a) {
            const double lr = t["learning_rate"].get<double>();
            QVERIFY(lr >= 1e-4 && lr <= 1e-2);
            below_1e3 += lr < 1e-3;
            const std::int64_t u = t["dense.units"].get<std::int64_t>();
            QVERIFY(u >= 16 && u <= 20);
            units.insert(u);
            optimizers.insert(t["optimizer"].get<std::string>());
        }
        QVERIFY2(below_1e3 > 150 && below_1e3 < 250, "log-uniform: about half below the geometric middle");
        QCOMPARE(units.size(), std::size_t(5));  // both ends included
        QCOMPARE(optimizers.size(), std::size_t(3));
        QCOMPARE(lf::random_trials(params, 400, 7), a);
        QVERIFY(lf::random_trials(params, 400, 8) != a);
        QVERIFY(mentions(error_of([&] { lf::random_trials(params, 0, 1); }), "at least 1 trial"));
    }

    void trial_settings_go_where_the_project_keeps_them() {
        const lf::Project p = mlp();
        const lf::Project t = lf::with_trial_settings(p, lf::TrialSettings::parse(
            R"({"learning_rate": 0.01, "batch_size": 32, "epochs": 3, "seed": 5, "optimizer": "SGD",
                "optimizer.momentum": 0.9, "precision": "float32", "dense.units": 64})"));
        QCOMPARE(std::get<double>(t.training.optimizer.params.at("learning_rate")), 0.01);
        QCOMPARE(std::get<double>(t.training.optimizer.params.at("momentum")), 0.9);
        QCOMPARE(t.training.optimizer.type, std::string("SGD"));
        QCOMPARE(t.training.batch_size, std::int64_t(32));
        QCOMPARE(t.training.epochs, std::int64_t(3));
        QCOMPARE(t.training.seed, std::int64_t(5));
        const auto dense = std::find_if(t.graph.nodes.begin(), t.graph.nodes.end(), [](const lf::Node& n) { return n.name == "dense"; });
        QVERIFY(dense != t.graph.nodes.end());
        QCOMPARE(std::get<std::int64_t>(dense->params.at("units")), std::int64_t(64));
        QCOMPARE(p.training.batch_size, mlp().training.batch_size);  // the project itself is untouched

        auto refused = [&](const char* json) {
            return error_of([&] { lf::check_trials(p, {lf::TrialSettings::parse(json)}); });
        };
        QVERIFY(mentions(refused(R"({"learnin_rate": 0.1})"), "unknown sweep parameter 'learnin_rate'"));
        QVERIFY(mentions(refused(R"({"nope.units": 3})"), "no layer named 'nope'"));
        QVERIFY(mentions(refused(R"({"dense.filters": 3})"), "a Dense layer has no parameter 'filters'"));
        QVERIFY(mentions(refused(R"({"dense.units": 0})"), "sweep parameter dense.units = 0"));
        QVERIFY(mentions(refused(R"({"dense.units": 1.5})"), "must be an integer"));
        QVERIFY(mentions(refused(R"({"batch_size": 0})"), "batch_size = 0: must be an integer of at least 1"));
        QVERIFY(mentions(refused(R"({"learning_rate": -1})"), "must be positive"));
        QVERIFY(mentions(refused(R"({"optimizer": "Adamm"})"), "is not an optimizer"));
        QVERIFY(mentions(refused(R"({"precision": "fp8"})"), "float32 or mixed_bfloat16"));
        QVERIFY(mentions(refused(R"({"optimizer": "SGD", "optimizer.beta_1": 0.9})"), "beta_1"));
    }

    void median_rule_stops_trials_worse_than_the_median() {
        const lf::MedianStop rule{1, 2};
        const std::vector<std::vector<double>> earlier{{1.0, 0.8, 0.7}, {1.2, 0.9, 0.8}, {0.9, 0.6}};
        QVERIFY(!lf::median_says_stop(earlier, {5.0}, false, rule));               // warm-up epoch
        QVERIFY(lf::median_says_stop(earlier, {1.0, 0.95}, false, rule));         // 0.95 > median 0.8
        QVERIFY(!lf::median_says_stop(earlier, {1.0, 0.7}, false, rule));         // better than the median
        QVERIFY(!lf::median_says_stop({{1.0, 0.5}}, {1.0, 0.9}, false, rule));    // one earlier trial: too few
        QVERIFY(lf::median_says_stop(earlier, {0.1, 0.2, 0.3}, true, rule));      // maximised: 0.3 < median 1.1
        // The third epoch: two earlier trials reached it (medians of their best-so-far 0.7 and 0.8).
        QVERIFY(lf::median_says_stop(earlier, {1.0, 0.9, 0.76}, false, rule));
        QVERIFY(!lf::median_says_stop(earlier, {1.0, 0.9, 0.74}, false, rule));
    }

    void objective_defaults_follow_the_validation() {
        lf::Project p = mlp();
        QCOMPARE(lf::default_objective(p), std::string("val_loss"));
        p.dataset.validation = "none";
        QCOMPARE(lf::default_objective(p), std::string("loss"));
        QVERIFY(lf::objective_maximized("val_accuracy", "auto"));
        QVERIFY(!lf::objective_maximized("val_loss", "auto"));
        QVERIFY(lf::objective_maximized("val_loss", "max"));
        QVERIFY(mentions(error_of([] { lf::objective_maximized("loss", "up"); }), "min, max or auto"));
    }

    void store_keeps_sweeps_and_their_trials() {
        const std::string path = dir_.filePath("sweeps.lfruns").toStdString();
        lf::RunStore store(path);
        const std::int64_t id = store.create_sweep("lr", R"({"mode":"grid"})", {R"({"learning_rate":0.1})", R"({"learning_rate":0.2})"});
        QVERIFY(mentions(error_of([&] { store.create_sweep("lr", "{}", {}); }), "already a sweep named 'lr'"));
        std::optional<lf::SweepInfo> s = store.sweep("lr");
        QVERIFY(s);
        QCOMPARE(s->id, id);
        QCOMPARE(s->trials.size(), std::size_t(2));
        QCOMPARE(s->trials[1].status, std::string("pending"));
        QVERIFY(std::isnan(s->trials[1].objective));
        const std::int64_t run = store.create_run({.name = "t", .graph = "{}", .settings = "{}", .tags = {"sweep:lr"}});
        lf::SweepTrial t = s->trials[1];
        t.run = run;
        t.status = "finished";
        t.objective = 0.25;
        t.curve = "[0.5,0.25]";
        store.update_trial(id, t);
        s = store.sweep("lr");
        QCOMPARE(s->trials[1].run, run);
        QCOMPARE(s->trials[1].objective, 0.25);
        QCOMPARE(s->trials[1].curve, std::string("[0.5,0.25]"));
        QCOMPARE(lf::best_trial(*s, false), std::optional<std::size_t>(1));
        QVERIFY(!store.sweep("other"));
        t.index = 9;
        QVERIFY(mentions(error_of([&] { store.update_trial(id, t); }), "has no trial 9"));

        store.set_status(run, lf::RunStatus::Finished);
        store.delete_run(run);  // the trial keeps its result without the run
        s = store.sweep("lr");
        QCOMPARE(s->trials[1].run, std::int64_t(0));
        QCOMPARE(s->trials[1].status, std::string("finished"));
        QCOMPARE(store.integrity_check(), std::string("ok"));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
