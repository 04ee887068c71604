// Backend-neutral planning (graph/schedule.h) as plain data, with no backend involved: buffers
// and their aliases, fan-out gradient slots, the rewrites and when they are refused, and the
// byte counts a backend's memory account starts from.
#include <QtTest>

#include "graph_builder.h"
#include "layerforge/graph/model.h"
#include "layerforge/graph/schedule.h"

namespace {

bool never_reads(const lf::ScheduledStep&, const lf::Schedule&) { return false; }
bool always_reads(const lf::ScheduledStep&, const lf::Schedule&) { return true; }

lf::Schedule plan(const lf::Graph& g, bool training, const lf::BackwardReadsOutput& reads = never_reads,
                  bool fuse = true) {
    lf::Model model(g);
    return lf::make_schedule(model, {.batch = 2, .training = training, .fuse = fuse}, reads);
}

}  // namespace

class TestSchedule : public QObject {
    Q_OBJECT
private slots:
    void views_alias_their_input_and_own_nothing() {
        GraphBuilder b = mlp_builder({4, 4, 1}, 8, "relu", 3);
        lf::Model model(b.graph);
        const lf::Schedule s = lf::make_schedule(model, {.batch = 2}, never_reads);
        const auto& in = s.step("input_0");
        const auto& flat = s.step("flatten_1");
        QVERIFY(!in.runs && !flat.runs);
        QCOMPARE(flat.out, in.out);
        QCOMPARE(s.inputs, std::vector<int>{in.out});
        QCOMPARE(s.buffers[std::size_t(in.out)].floats, std::size_t(2 * 16));
        QCOMPARE(s.output, s.step("softmax_4").out);
        QCOMPARE(s.output_width, std::int64_t(3));
        QVERIFY(s.output_grad != lf::kNoBuffer);
        QCOMPARE(flat.grad, lf::kNoBuffer);  // the input needs no gradient unless asked
        // Every float a plan allocates is counted once.
        std::size_t total = 0;
        for (const auto& buf : s.buffers) total += buf.floats * sizeof(float);
        QCOMPARE(s.bytes(lf::BufferKind::Activation) + s.bytes(lf::BufferKind::Gradient), total);
    }

    void inference_plans_have_no_gradients() {
        const lf::Schedule s = plan(mlp_builder({4, 4, 1}, 8, "relu", 3).graph, false);
        QCOMPARE(s.bytes(lf::BufferKind::Gradient), std::size_t(0));
        QCOMPARE(s.output_grad, lf::kNoBuffer);
        for (const auto& st : s.steps) QVERIFY(st.grad_slots.empty());
    }

    void a_fan_out_costs_one_slot_per_extra_consumer() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{6}}});
        auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {in});
        auto x = b.add("Dense", {{"units", std::int64_t(5)}}, {d});
        auto y = b.add("Dense", {{"units", std::int64_t(5)}}, {d});
        auto z = b.add("Dense", {{"units", std::int64_t(5)}}, {d});
        b.add("Add", {}, {x, y, z});
        const lf::Schedule s = plan(b.graph, true);
        const auto& producer = s.step(d);
        QCOMPARE(producer.grad_slots.size(), std::size_t(3));
        // The first consumer writes the producer's own gradient; the other two get slots.
        QCOMPARE(producer.grad_slots[0], producer.grad);
        QCOMPARE(s.step(x).in_grad[0], producer.grad);
        QVERIFY(s.step(y).in_grad[0] != producer.grad && s.step(z).in_grad[0] != producer.grad);
        QVERIFY(s.step(y).in_grad[0] != s.step(z).in_grad[0]);
    }

    void batch_norm_absorbs_its_relu_and_the_relu_aliases_it() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 2}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{3, 3}}, {"padding", std::string("same")}}, {in});
        auto bn = b.add("BatchNormalization", {}, {c});
        auto r = b.add("ReLU", {}, {bn});
        b.add("Flatten", {}, {r});
        const lf::Schedule s = plan(b.graph, true);
        QVERIFY(s.step(bn).rewrites.fuse_relu);
        QVERIFY(s.step(r).folded && !s.step(r).runs);
        QCOMPARE(s.step(r).out, s.step(bn).out);
        // Without fuse nothing is rewritten.
        const lf::Schedule plain = plan(b.graph, true, never_reads, false);
        QVERIFY(!plain.step(bn).rewrites.fuse_relu && plain.step(r).runs);
        QVERIFY(plain.bytes(lf::BufferKind::Activation) > s.bytes(lf::BufferKind::Activation));
        // At inference the BatchNormalization (with its ReLU) folds into the convolution.
        const lf::Schedule infer = plan(b.graph, false);
        QCOMPARE(infer.step(c).rewrites.folded_norm, bn);
        QVERIFY(infer.step(c).rewrites.folded_norm_relu);
        QVERIFY(infer.step(bn).folded && infer.step(r).folded);
        QCOMPARE(infer.step(r).out, infer.step(c).out);
    }

    void a_convolutions_relu_moves_past_max_pooling() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 1}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 3}}, {"padding", std::string("same")},
                                  {"activation", std::string("relu")}}, {in});
        auto p = b.add("MaxPool2D", {}, {c});
        b.add("Flatten", {}, {p});
        const lf::Schedule s = plan(b.graph, true);
        QVERIFY(s.step(c).rewrites.relu_moved_out);
        QVERIFY(s.step(p).rewrites.relu_after);
        GraphBuilder avg;  // average pooling does not commute with relu
        auto in2 = avg.add("Input", {{"shape", lf::IntList{4, 4, 1}}});
        auto c2 = avg.add("Conv2D", {{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 3}},
                                     {"activation", std::string("relu")}}, {in2});
        avg.add("AveragePooling2D", {}, {c2});
        QVERIFY(!plan(avg.graph, true).step(c2).rewrites.relu_moved_out);
    }

    void a_relu_runs_in_place_only_when_the_backend_allows_it() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{6}}});
        auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {in});
        auto r = b.add("ReLU", {}, {d});
        b.add("Dense", {{"units", std::int64_t(2)}}, {r});
        const lf::Schedule s = plan(b.graph, true);
        QVERIFY(s.step(r).rewrites.in_place && s.step(r).runs);
        QCOMPARE(s.step(r).out, s.step(d).out);
        const lf::Schedule kept = plan(b.graph, true, always_reads);  // the Dense's backward reads its output
        QVERIFY(!kept.step(r).rewrites.in_place);
        QVERIFY(kept.step(r).out != kept.step(d).out);
        // A capped ReLU cannot be differentiated from its output.
        GraphBuilder capped = b;
        for (auto& n : capped.graph.nodes)
            if (n.id == r) n.params["max_value"] = 6.0;
        QVERIFY(!plan(capped.graph, true).step(r).rewrites.in_place);
    }

    void dropout_streams_get_distinct_seeds() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{6}}});
        auto a = b.add("Dropout", {{"rate", 0.5}}, {in});
        auto c = b.add("Dropout", {{"rate", 0.5}}, {a});
        lf::Model model(b.graph);
        const lf::Schedule s = lf::make_schedule(model, {.batch = 1, .seed = 11}, never_reads);
        QVERIFY(s.step(a).seed != s.step(c).seed);
        QCOMPARE(s.step(in).seed, std::uint64_t(11));
    }
};

QTEST_APPLESS_MAIN(TestSchedule)
#include "test_schedule.moc"
