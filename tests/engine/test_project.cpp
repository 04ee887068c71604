#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "layerforge/core/error.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/keras_import.h"
#include "layerforge/project/project.h"

namespace {

const std::string kOrigin = "dir/test.lfproj";

std::string source_dir() {
    // CTest sets LF_SOURCE_DIR; when run by hand, go up from tests/engine/ to the source root.
    const char* d = std::getenv("LF_SOURCE_DIR");
    return d ? d : QDir(QFileInfo(__FILE__).absolutePath() + "/../..").canonicalPath().toStdString();
}

std::string template_path(const char* name) { return source_dir() + "/resources/templates/" + name; }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A minimal valid document: the nodes array, then extra top-level text spliced in.
std::string doc(const std::string& nodes, const std::string& rest = "") {
    return R"({"version": 1, "model": {"nodes": )" + nodes + "}" + rest + "}";
}
// Two nodes and the given edges array.
std::string with_edges(const std::string& edges) {
    return R"({"version": 1, "model": {"nodes": [{"id": "input", "type": "Input"}, {"id": "flatten", "type": "Flatten"}],
              "edges": )" + edges + "}}";
}
const std::string kTwoNodes =
    R"([{"id": "input", "type": "Input", "params": {"shape": [28, 28, 1]}},
        {"id": "flatten", "type": "Flatten"}])";

lf::Node node(const char* id, const char* type, lf::Params params, double x, double y = 0) {
    return lf::Node{id, type, id, std::move(params), x, y};
}
lf::Edge edge(const char* from, const char* to, int to_port = 0) { return lf::Edge{{from, 0}, {to, to_port}}; }

// The tutorial model as the template file must describe it.
lf::Project expected_mlp() {
    lf::Project p;
    p.name = "fashion_mlp";
    p.graph.nodes = {node("input", "Input", {{"shape", lf::IntList{28, 28, 1}}}, 0),
                     node("flatten", "Flatten", {}, 260),
                     node("dense", "Dense", {{"units", std::int64_t(100)}, {"activation", std::string("relu")}}, 520),
                     node("dense_1", "Dense", {{"units", std::int64_t(10)}}, 780),
                     node("softmax", "Softmax", {}, 1040)};
    p.graph.edges = {edge("input", "flatten"), edge("flatten", "dense"), edge("dense", "dense_1"),
                     edge("dense_1", "softmax")};
    p.training.loss_params = {{"from_logits", false}};
    return p;
}

// Every field away from its default, awkward doubles included.
lf::Project rich_project() {
    lf::Project p;
    p.name = "rich \"quoted\" name \xc3\xa9";
    p.graph.nodes = {node("in", "Input", {{"shape", lf::IntList{32, 32, 3}}}, -12.5, 0.1),
                     node("c", "Conv2D",
                          {{"filters", std::int64_t(-7)},
                           {"kernel_size", lf::IntList{}},
                           {"rate", 0.1},
                           {"tiny", 1e-300},
                           {"third", 1.0 / 3.0},
                           {"whole", 2.0},
                           {"big", std::int64_t(9007199254740993)},
                           {"flag", true},
                           {"padding", std::string("same")}},
                          1e17, 3.0)};
    p.graph.nodes[1].name = "conv with a name";
    p.graph.edges = {lf::Edge{{"in", 0}, {"c", 2}}};
    p.graph.groups = {{"g1", "Stem \"block\"", {"c", "in"}, true}};
    p.dataset = {"image-folder", "/data/imgs", 0.25, "split", 1000, 7};
    p.training.optimizer = {"SGD", {{"learning_rate", 0.01}, {"momentum", 0.9}, {"nesterov", true}}};
    p.training.loss = "CategoricalCrossentropy";
    p.training.loss_params = {{"from_logits", true}, {"label_smoothing", 0.1}};
    p.training.metrics = {"accuracy", "top_k"};
    p.training.schedule = {"step_decay", {{"step", std::int64_t(3)}, {"rate", 0.5}}};
    p.training.batch_size = 128;
    p.training.epochs = 0;
    p.training.seed = -1;
    p.training.shuffle = false;
    p.training.memory_limit_mb = 2048;
    p.training.precision = lf::Precision::MixedBFloat16;
    p.training.callbacks = {{"EarlyStopping", {{"monitor", std::string("val_loss")}, {"patience", std::int64_t(3)}}},
                            {"ReduceLROnPlateau", {}}};
    return p;
}

// Expects an Input error that starts with the origin and mentions every needle.
void expect_error(const std::string& text, std::initializer_list<const char*> needles) {
    try {
        lf::parse_project(text, kOrigin);
        QFAIL(("no error for: " + text).c_str());
    } catch (const lf::Error& e) {
        const std::string msg = e.what();
        QCOMPARE(int(e.kind()), int(lf::ErrorKind::Input));
        QVERIFY2(msg.rfind(kOrigin, 0) == 0, msg.c_str());
        for (const char* n : needles) QVERIFY2(msg.find(n) != std::string::npos, (msg + "  [missing: " + n + "]").c_str());
    }
}

}  // namespace

class TestProject : public QObject {
    Q_OBJECT
private slots:
    void keras_relu6_keeps_its_cap_and_threshold() {
        const lf::Graph g = lf::import_keras_model(R"({"class_name": "Sequential", "config": {"layers": [
            {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 4], "name": "in"}},
            {"class_name": "ReLU", "config": {"name": "relu6", "max_value": 6, "negative_slope": 0.0, "threshold": 0.5}},
            {"class_name": "ReLU", "config": {"name": "plain", "max_value": null, "negative_slope": 0.0, "threshold": 0.0}}]}})");
        const lf::Model m(g);
        const lf::Params& capped = m.info(g.nodes[1].id).params;
        QCOMPARE(std::get<double>(capped.at("max_value")), 6.0);
        QCOMPARE(std::get<double>(capped.at("threshold")), 0.5);
        QCOMPARE(std::get<double>(m.info(g.nodes[2].id).params.at("max_value")), 0.0);  // None: no cap
    }
    void mlp_template_is_the_tutorial_model() {
        lf::Project p = lf::load_project(template_path("fashion_mlp.lfproj"));
        QVERIFY(p == expected_mlp());
    }

    void functional_template_is_a_dag_with_a_skip() {
        lf::Project p = lf::load_project(template_path("fashion_functional.lfproj"));
        QCOMPARE(p.graph.nodes.size(), std::size_t(8));
        QVERIFY(p.graph.find("add"));
        QCOMPARE(p.graph.inputs_of("add").size(), std::size_t(2));
        QCOMPARE(p.graph.inputs_of("add")[1].from.node, std::string("dense_skip"));
        QCOMPARE(std::get<std::string>(p.graph.find("relu")->params.at("activation")), std::string("relu"));
        QCOMPARE(p.graph.find("dense_skip")->params.count("activation"), std::size_t(0));
        QCOMPARE(std::get<std::int64_t>(p.graph.find("dense_out")->params.at("units")), std::int64_t(10));
        QVERIFY(p.training == expected_mlp().training);
        QVERIFY(p.dataset == lf::DatasetBinding{});
    }

    void round_trip_is_lossless() {
        for (const lf::Project& p : {rich_project(), expected_mlp(), lf::Project{},
                                     lf::load_project(template_path("fashion_functional.lfproj"))}) {
            const std::string text = lf::serialize_project(p);
            lf::Project back = lf::parse_project(text, kOrigin);
            QVERIFY2(back == p, text.c_str());
            QCOMPARE(lf::serialize_project(back), text);
        }
        // Doubles keep their type and exact value.
        lf::Project back = lf::parse_project(lf::serialize_project(rich_project()), kOrigin);
        const lf::Params& cp = back.graph.nodes[1].params;
        QVERIFY(std::holds_alternative<double>(cp.at("whole")));
        QCOMPARE(std::get<double>(cp.at("third")), 1.0 / 3.0);
        QVERIFY(std::holds_alternative<lf::IntList>(cp.at("kernel_size")));
    }

    void precision_is_a_policy_name_and_float32_stays_out_of_the_file() {
        lf::Project p = expected_mlp();
        QVERIFY(lf::serialize_project(p).find("precision") == std::string::npos);  // files stay as they were
        QCOMPARE(lf::parse_project(lf::serialize_project(p), kOrigin).training.precision, lf::Precision::Float32);
        p.training.precision = lf::Precision::MixedBFloat16;
        const std::string text = lf::serialize_project(p);
        QVERIFY2(text.find("\"precision\": \"mixed_bfloat16\"") != std::string::npos, text.c_str());
        QCOMPARE(lf::parse_project(text, kOrigin).training.precision, lf::Precision::MixedBFloat16);
        const lf::Project f32 = lf::parse_project(doc(kTwoNodes, R"(, "training": {"precision": "float32"})"), kOrigin);
        QCOMPARE(f32.training.precision, lf::Precision::Float32);
        // Keras' names only: the file, the JSON path and every allowed value are named.
        expect_error(doc(kTwoNodes, R"(, "training": {"precision": "bfloat16"})"),
                     {"training.precision", "unknown value \"bfloat16\"", "\"float32\", \"mixed_bfloat16\""});
        expect_error(doc(kTwoNodes, R"(, "training": {"precision": 16})"), {"training.precision", "string"});
    }

    void templates_are_in_canonical_form() {
        // Saving a template unchanged rewrites it byte for byte, so edits diff cleanly.
        for (const char* name : {"fashion_mlp.lfproj", "fashion_functional.lfproj"}) {
            const std::string path = template_path(name);
            QCOMPARE(lf::serialize_project(lf::load_project(path)), read_text(path));
        }
    }

    void serialization_is_pretty_and_ordered() {
        const std::string text = lf::serialize_project(expected_mlp());
        QVERIFY(text.rfind("{\n  \"format\": \"layerforge-project\",\n  \"version\": 1,\n  \"name\": \"fashion_mlp\",\n", 0) == 0);
        QVERIFY(text.find("\"learning_rate\": 0.001") != std::string::npos);
        QVERIFY(text.find("\"validation_split\": 0.0") != std::string::npos);
        QVERIFY(text.find("\"from\": \"input:0\"") != std::string::npos);
        QVERIFY(text.find("\"shape\": [28, 28, 1]") != std::string::npos);
        QVERIFY(text.find("model") < text.find("dataset"));
        QVERIFY(text.find("dataset") < text.find("training"));
        QVERIFY(text.back() == '\n');
    }

    void missing_sections_take_defaults() {
        lf::Project p = lf::parse_project(R"({"version": 1, "model": {"nodes": []}})", kOrigin);
        QVERIFY(p == lf::Project{});
        p = lf::parse_project(doc(kTwoNodes, R"(, "training": {"optimizer": {"type": "SGD"}, "loss": "MeanSquaredError"})"), kOrigin);
        QCOMPARE(p.graph.nodes[1].name, std::string("flatten"));
        QVERIFY(p.graph.nodes[1].params.empty());
        QCOMPARE(p.training.optimizer.type, std::string("SGD"));
        QVERIFY(p.training.optimizer.params.empty());
        QCOMPARE(p.training.loss, std::string("MeanSquaredError"));
        QCOMPARE(p.training.epochs, std::int64_t(5));
    }

    void structural_errors_name_the_field() {
        expect_error(doc(kTwoNodes, R"(, "training": {"epochz": 5})"), {"training.epochz: unknown field"});
        expect_error(doc(kTwoNodes, R"(, "modle": {})"), {"modle: unknown field"});
        expect_error(doc(kTwoNodes, R"(, "dataset": {"kind": "fashion-mnist", "limt": 1})"), {"dataset.limt: unknown field"});
        expect_error(doc(R"([{"id": "a", "type": "Input", "colour": "red"}])"), {"model.nodes[0].colour: unknown field"});
        expect_error(R"({"version": 1, "model": {"nodes": [], "edgez": []}})", {"model.edgez: unknown field"});
        expect_error(doc(R"([{"id": "a", "type": "A"}, {"id": "b", "type": "B"}, {"id": "c", "type": "Dense", "params": {"units": {"n": 1}}}])"),
                     {"model.nodes[2].params.units", "object"});
        expect_error(doc(R"([{"id": "c", "type": "Dense", "params": {"units": null}}])"), {"model.nodes[0].params.units", "null"});
        expect_error(doc(R"([{"id": "c", "type": "Dense", "params": {"sizes": [1, "2"]}}])"), {"model.nodes[0].params.sizes", "integers"});
        expect_error(doc(R"([{"id": "c", "type": "Dense", "params": {"sizes": [1, 2.5]}}])"), {"model.nodes[0].params.sizes"});
        expect_error(doc(R"([{"id": "c", "type": "Dense", "params": [1]}])"), {"model.nodes[0].params", "object"});
        expect_error(doc(kTwoNodes, R"(, "training": {"optimizer": {"type": "Adam", "learning_rate": [0.1]}})"),
                     {"training.optimizer.learning_rate"});
        expect_error(doc(kTwoNodes, R"(, "training": {"optimizer": {"learning_rate": 0.1}})"), {"training.optimizer.type", "missing"});
        expect_error(doc(kTwoNodes, R"(, "training": {"callbacks": [{"type": "EarlyStopping"}, {"patience": 3}]})"),
                     {"training.callbacks[1].type", "missing"});
        expect_error(doc(kTwoNodes, R"(, "training": {"callbacks": {}})"), {"training.callbacks", "array"});
    }

    void groups_round_trip_and_stay_optional() {
        lf::Project p = expected_mlp();
        p.graph.groups = {{"head", "Head", {"dense_1", "softmax"}, true}, {"body", "body", {"flatten"}, false}};
        const std::string text = lf::serialize_project(p);
        QVERIFY(text.find(R"("groups": [)") != std::string::npos);
        QVERIFY(text.find(R"("nodes": ["dense_1", "softmax"])") != std::string::npos);
        QVERIFY(lf::parse_project(text, kOrigin) == p);
        QVERIFY(lf::serialize_project(expected_mlp()).find("groups") == std::string::npos);  // none: not written
        // Name and collapsed are optional.
        lf::Project q = lf::parse_project(
            R"({"version": 1, "model": {"nodes": )" + kTwoNodes + R"(, "groups": [{"id": "g", "nodes": ["input"]}]}})", kOrigin);
        QCOMPARE(q.graph.groups.size(), std::size_t(1));
        QCOMPARE(q.graph.groups[0].name, std::string("g"));
        QVERIFY(!q.graph.groups[0].collapsed);
        QCOMPARE(q.graph.group_of("input"), &q.graph.groups[0]);
        QVERIFY(!q.graph.group_of("flatten"));
    }

    void group_errors_name_the_field() {
        auto groups = [](const std::string& g) {
            return R"({"version": 1, "model": {"nodes": )" + kTwoNodes + R"(, "groups": )" + g + "}}";
        };
        expect_error(groups(R"([{"id": "g", "nodes": ["input", "nowhere"]}])"), {"model.groups[0].nodes[1]", "unknown node \"nowhere\""});
        expect_error(groups(R"([{"id": "g", "nodes": ["input"]}, {"id": "h", "nodes": ["flatten", "input"]}])"),
                     {"model.groups[1].nodes[1]", "already in group \"g\"", "at most one group"});
        expect_error(groups(R"([{"id": "g", "nodes": ["input"]}, {"id": "g", "nodes": ["flatten"]}])"),
                     {"model.groups[1].id", "duplicate group id", "model.groups[0]"});
        expect_error(groups(R"([{"id": "g", "nodes": []}])"), {"model.groups[0].nodes", "at least one node"});
        expect_error(groups(R"([{"nodes": ["input"]}])"), {"model.groups[0].id", "missing"});
        expect_error(groups(R"([{"id": "", "nodes": ["input"]}])"), {"model.groups[0].id", "empty"});
        expect_error(groups(R"([{"id": "g", "nodes": ["input"], "colour": 1}])"), {"model.groups[0].colour: unknown field"});
        expect_error(groups(R"([{"id": "g", "nodes": ["input"], "collapsed": "yes"}])"), {"model.groups[0].collapsed"});
        expect_error(groups(R"([{"id": "g", "nodes": [3]}])"), {"model.groups[0].nodes[0]", "string"});
        expect_error(groups(R"({})"), {"model.groups", "array"});
    }

    void version_errors() {
        expect_error(R"({"model": {"nodes": []}})", {"version", "missing"});
        expect_error(R"({"version": 2, "model": {"nodes": []}})", {"version", "newer Layerforge", "update"});
        expect_error(R"({"version": 18446744073709551615, "model": {"nodes": []}})", {"version", "newer Layerforge"});
        expect_error(R"({"version": 0, "model": {"nodes": []}})", {"version", "unsupported"});
        expect_error(R"({"version": -3, "model": {"nodes": []}})", {"version", "unsupported"});
        expect_error(R"({"version": "1", "model": {"nodes": []}})", {"version"});
        expect_error(R"({"version": 1.0, "model": {"nodes": []}})", {"version"});
        expect_error(R"({"format": "something-else", "version": 1, "model": {"nodes": []}})", {"format", "not a Layerforge"});
    }

    void graph_errors() {
        expect_error(R"({"version": 1})", {"model", "missing"});
        expect_error(R"({"version": 1, "model": {}})", {"model.nodes", "missing"});
        expect_error(R"({"version": 1, "model": {"nodes": {}}})", {"model.nodes", "array"});
        expect_error(doc(R"([{"type": "Input"}])"), {"model.nodes[0].id", "missing"});
        expect_error(doc(R"([{"id": "", "type": "Input"}])"), {"model.nodes[0].id", "empty"});
        expect_error(doc(R"([{"id": "a"}])"), {"model.nodes[0].type", "missing"});
        expect_error(doc(R"([{"id": 3, "type": "Input"}])"), {"model.nodes[0].id", "string"});
        expect_error(doc(R"([{"id": "a", "type": "A"}, {"id": "a", "type": "B"}])"),
                     {"model.nodes[1].id", "duplicate", "model.nodes[0]"});
        expect_error(doc(R"([{"id": "a", "type": "A", "position": [1]}])"), {"model.nodes[0].position"});
        expect_error(doc(R"([{"id": "a", "type": "A", "position": [1, "2"]}])"), {"model.nodes[0].position[1]", "number"});
        for (const char* bad : {"\"input\"", "\"input:x\"", "\":0\"", "\"input:-1\"", "\"input:\"", "\"input:99999999999\"", "7"})
            expect_error(with_edges(std::string(R"([{"from": )") + bad + R"(, "to": "flatten:0"}])"),
                         {"model.edges[0].from"});
        expect_error(with_edges(R"([{"from": "input:0", "to": "nowhere:0"}])"), {"model.edges[0].to", "unknown node"});
        expect_error(with_edges(R"([{"from": "input:0"}])"), {"model.edges[0].to", "missing"});
        expect_error(with_edges(R"([{"from": "input:0", "to": "flatten:0", "port": 1}])"), {"model.edges[0].port: unknown field"});
        expect_error(with_edges("{}"), {"model.edges", "array"});
        // Edges are given inside "model"; a misplaced top-level "edges" is an unknown field.
        expect_error(doc(kTwoNodes, R"(, "edges": [])"), {"edges: unknown field"});
    }

    void value_errors() {
        expect_error(doc(kTwoNodes, R"(, "training": {"epochs": "5"})"), {"training.epochs", "integer"});
        expect_error(doc(kTwoNodes, R"(, "training": {"epochs": 5.5})"), {"training.epochs", "integer"});
        expect_error(doc(kTwoNodes, R"(, "training": {"shuffle": 1})"), {"training.shuffle"});
        expect_error(doc(kTwoNodes, R"(, "training": {"metrics": "accuracy"})"), {"training.metrics", "array"});
        expect_error(doc(kTwoNodes, R"(, "training": {"metrics": [1]})"), {"training.metrics[0]", "string"});
        expect_error(doc(kTwoNodes, R"(, "training": {"batch_size": 0})"), {"training.batch_size"});
        expect_error(doc(kTwoNodes, R"(, "training": {"seed": 99999999999999999999})"), {"training.seed"});
        expect_error(doc(kTwoNodes, R"(, "training": {"seed": 9223372036854775808})"), {"training.seed", "too large"});
        expect_error(doc(kTwoNodes, R"(, "training": {"loss": 3})"), {"training.loss"});
        expect_error(doc(kTwoNodes, R"(, "training": {"memory_limit_mb": -1})"), {"training.memory_limit_mb"});
        expect_error(doc(kTwoNodes, R"(, "dataset": {"kind": "cifar"})"), {"dataset.kind", "fashion-mnist"});
        expect_error(doc(kTwoNodes, R"(, "dataset": {"validation": "val"})"), {"dataset.validation"});
        expect_error(doc(kTwoNodes, R"(, "dataset": {"validation_split": 1.5})"), {"dataset.validation_split"});
        expect_error(doc(kTwoNodes, R"(, "dataset": {"limit_train": -1})"), {"dataset.limit_train"});
        expect_error(doc(kTwoNodes, R"(, "dataset": [])"), {"dataset", "object"});
        expect_error("[]", {"object"});
        expect_error("\"project\"", {"object"});
        expect_error("null", {"object"});
    }

    void malformed_json_gives_line_and_column() {
        expect_error("{\n  \"version\": 1,\n  \"model\": {\"nodes\": [}\n}", {"dir/test.lfproj:3:", "malformed JSON"});
        expect_error("", {"malformed JSON"});
        expect_error("{\"version\": 1", {"malformed JSON"});
        expect_error("{\"name\": \"\xff\", \"version\": 1}", {"malformed JSON"});
    }

    void never_crashes_on_damaged_input() {
        const std::string text = read_text(template_path("fashion_functional.lfproj"));
        QVERIFY(!text.empty());
        const char replacements[] = {'"', '{', '[', ']', '0', 'x', ',', ':', '-', '}', ' ', '\\'};
        int parsed = 0, rejected = 0;
        auto attempt = [&](const std::string& t) {
            try {
                lf::parse_project(t, kOrigin);
                ++parsed;
            } catch (const lf::Error& e) {
                QCOMPARE(int(e.kind()), int(lf::ErrorKind::Input));
                QVERIFY(std::string(e.what()).rfind(kOrigin, 0) == 0);
                ++rejected;
            }
        };
        for (std::size_t i = 0; i < text.size(); i += 7) attempt(text.substr(0, i));
        for (std::size_t i = 0; i < text.size(); i += 3) {
            std::string t = text;
            t[i] = replacements[i % sizeof replacements];
            attempt(t);
        }
        QVERIFY(parsed > 0);
        QVERIFY(rejected > 0);
    }

    void save_is_atomic_and_loads_back() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.lfproj").toStdString();
        lf::save_project(rich_project(), path);
        QVERIFY(lf::load_project(path) == rich_project());
        lf::save_project(expected_mlp(), path);  // overwrite
        QVERIFY(lf::load_project(path) == expected_mlp());
        QCOMPARE(read_text(path), lf::serialize_project(expected_mlp()));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.lfproj"});
    }

    void save_to_unwritable_place_names_the_path() {
        QTemporaryDir dir;
        // Tests run as root, where permission bits do not stop writes: use a missing folder.
        const std::string path = dir.filePath("missing-folder/p.lfproj").toStdString();
        try {
            lf::save_project(expected_mlp(), path);
            QFAIL("no error");
        } catch (const lf::Error& e) {
            QCOMPARE(int(e.kind()), int(lf::ErrorKind::Input));
            QVERIFY2(std::string(e.what()).find(path) == 0, e.what());
            QVERIFY2(std::string(e.what()).find("writable") != std::string::npos, e.what());
        }
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    void load_errors_name_the_path() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("nope.lfproj").toStdString();
        for (const std::string& path : {missing, dir.path().toStdString()}) {
            try {
                lf::load_project(path);
                QFAIL("no error");
            } catch (const lf::Error& e) {
                QCOMPARE(int(e.kind()), int(lf::ErrorKind::Input));
                QVERIFY2(std::string(e.what()).rfind(path, 0) == 0, e.what());
            }
        }
        const std::string bad = dir.filePath("bad.lfproj").toStdString();
        std::ofstream(bad) << "{\"version\": 1, \"model\": {\"nodes\": []}, \"x\": 1}";
        try {
            lf::load_project(bad);
            QFAIL("no error");
        } catch (const lf::Error& e) {
            QVERIFY2(std::string(e.what()) .rfind(bad + ": x: unknown field", 0) == 0, e.what());
        }
    }

    void serialize_rejects_values_json_cannot_hold() {
        lf::Project p = expected_mlp();
        p.graph.nodes[2].params["rate"] = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::serialize_project(p));
        p = expected_mlp();
        p.training.optimizer.params["type"] = std::string("clash");
        QVERIFY_THROWS_EXCEPTION(lf::Error, lf::serialize_project(p));
    }
};

QTEST_APPLESS_MAIN(TestProject)
#include "test_project.moc"
