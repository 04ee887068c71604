// The CPU plan's optimizer update makes the plan's copies of the weights as it writes them
// (CpuPlan::backward_and_update), so the passes after it read them without copying: in float32
// the convolutions' blocked kernels (oneDNN reorders). The same steps as the plain update, bit
// for bit, and never a copy older than the weights. The bfloat16 copies, cut into bands, are
// checked in test_bf16_ops (CPUs with bfloat16 only).
#include <QtTest>

#include "graph_builder.h"
#include "update_copies.h"

namespace {

lf::Graph conv_net() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{8, 8, 3}}});
    auto c1 = b.add("Conv2D", {{"filters", std::int64_t(16)}, {"kernel_size", std::int64_t(3)}, {"padding", "same"},
                               {"activation", "relu"}}, {in});
    auto c2 = b.add("Conv2D", {{"filters", std::int64_t(32)}, {"kernel_size", std::int64_t(3)}}, {c1});
    auto f = b.add("Flatten", {}, {c2});
    auto d = b.add("Dense", {{"units", std::int64_t(5)}}, {f});
    b.add("Softmax", {}, {d});
    return b.graph;
}

}  // namespace

class TestUpdateCopies : public QObject {
    Q_OBJECT
private slots:
    void opening_the_weights_for_writing_moves_their_version() {
        lf::Model model(conv_net());
        const std::uint64_t v = model.weights_version();
        const lf::Model& read = model;
        (void)read.weights();
        QCOMPARE(model.weights_version(), v);
        model.weights()[0] = 1.f;
        QVERIFY(model.weights_version() > v);
        const std::uint64_t w = model.weights_version();
        model.init_weights(2);
        QVERIFY(model.weights_version() > w);
    }

    void the_update_takes_the_plain_updates_steps() {
        for (int threads : {1, 2})
            lf_test::expect_fused_update_takes_the_plain_steps(conv_net(), {.batch = 4, .threads = threads});
    }

    void passes_never_read_copies_older_than_the_weights() {
        lf_test::expect_copies_follow_the_weights(conv_net(), {.batch = 4});
    }
};

QTEST_APPLESS_MAIN(TestUpdateCopies)
#include "test_update_copies.moc"
