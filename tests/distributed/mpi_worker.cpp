// One rank of the MPI checks that test_mpi_collectives starts with mpirun. Exit 0 when every
// check held; otherwise a line per failure on stderr and exit 1.
//   lf_mpi_worker sums        bucketed float sums, double sums and broadcasts between the ranks
//   lf_mpi_worker gradients   DataParallel over a real model: the ranks' parts of a global batch
//                             give the gradient and loss of the whole batch on every rank
//   lf_mpi_worker hang S      rank 1 stops answering; rank 0 must end the job after S seconds
//   lf_mpi_worker die         rank 1 is killed; the launcher must end the job
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "layerforge/data/batch_source.h"
#include "layerforge/devices/devices.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "mpi_loader.h"
#include "train/data_parallel.h"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "check failed: %s\n", what.c_str());
    ++failures;
}

void sums(lf::Communicator& c) {
    const int n = c.size(), r = c.rank();
    const double expect = double(n) * (n + 1) / 2;  // ranks add rank + 1
    std::vector<std::vector<float>> buffers;
    for (std::size_t size : {std::size_t(1), std::size_t(1000), (std::size_t(1) << 20) + 3})
        buffers.emplace_back(size, float(r + 1));
    for (auto& b : buffers) c.start_sum(b.data(), b.size());
    c.progress();
    c.wait_all({"the test's sums"});
    for (auto& b : buffers)
        for (float v : b)
            if (v != float(expect)) {
                check(false, "a bucketed sum gave " + std::to_string(v) + ", not " + std::to_string(expect));
                break;
            }
    std::vector<double> d{double(r), 1.0};
    c.sum(d.data(), d.size(), {"the test's double sum"});
    check(d[0] == double(n) * (n - 1) / 2 && d[1] == n, "the double sum");
    const int root = n - 1;
    std::vector<float> f(5, r == root ? 7.5f : 0.f);
    c.broadcast(f.data(), f.size(), root, {"the test's broadcast"});
    check(f == std::vector<float>(5, 7.5f), "the float broadcast");
    std::string text = r == root ? std::string(100000, 'x') + "end" : "";
    c.broadcast(text, root, {"the test's byte broadcast"});
    check(text.size() == 100003 && text.ends_with("end"), "the byte broadcast");
}

// Rows of a fixed random batch: every rank makes the same one.
struct Batch {
    std::vector<float> x;
    std::vector<std::int32_t> y;
};

Batch make_batch(std::int64_t rows, std::int64_t width) {
    Batch b;
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> u(0, 1);
    b.x.resize(std::size_t(rows * width));
    for (float& v : b.x) v = u(rng);
    for (std::int64_t i = 0; i < rows; ++i) b.y.push_back(std::int32_t(i % 10));
    return b;
}

void gradients(lf::Communicator& c) {
    const std::string source = std::getenv("LF_SOURCE_DIR") ? std::getenv("LF_SOURCE_DIR") : ".";
    const lf::Project p = lf::load_project(source + "/resources/templates/fashion_cnn.lfproj");
    lf::Model model(p.graph);
    model.init_weights(c.rank() == 0 ? 5 : 99);  // rank 0's weights must win the broadcast
    std::vector<std::unique_ptr<lf::Metric>> metrics;
    metrics.push_back(lf::make_metric("accuracy"));
    auto device = lf::load_model(model, "cpu");
    lf::DataParallel dp(c, *device, metrics, 5000);
    dp.broadcast_weights();
    const std::unique_ptr<lf::Loss> loss = lf::make_loss("SparseCategoricalCrossentropy", {});
    const std::int64_t global = 2 * c.size() + 1;  // uneven parts
    const lf::Shard shard{c.rank(), c.size()};

    // The reference: the whole batch in one plan.
    lf::PlanOptions o;
    o.batch = global;
    auto whole = device->make_plan(o);
    const Batch b = make_batch(global, whole->input_width());
    lf::HostLoss whole_loss(*whole);
    whole->set_input(b.x.data());
    const double reference_loss = whole_loss.train_step(*loss, b.y.data());
    const std::vector<float> reference(model.grads().begin(), model.grads().begin() + std::ptrdiff_t(model.trainable_size()));

    // This rank's part, its gradient averaged over the ranks.
    o.batch = shard.size(global);
    auto part = device->make_plan(o);
    dp.attach(*part);
    lf::HostLoss part_loss(*part);
    const std::int64_t first = shard.begin(global), width = part->input_width();
    part->set_input(b.x.data() + first * width);
    dp.begin_step(*part, o.batch, global, 0);
    const double mine = part_loss.train_step(*loss, b.y.data() + first);
    metrics[0]->update(part_loss.output(), b.y.data() + first, o.batch, part->output_width());
    const lf::DataParallel::Totals t = dp.finish_step(mine * double(o.batch), c.rank() == 1);
    check(t.rows == global, "the world's rows: " + std::to_string(t.rows));
    check(t.stop == (c.size() > 1), "a stop asked by rank 1 reaches every rank");
    check(std::abs(t.loss_sum / double(t.rows) - reference_loss) < 1e-5 * (1 + std::abs(reference_loss)),
          "the world's loss " + std::to_string(t.loss_sum / double(t.rows)) + " vs " + std::to_string(reference_loss));
    check(dp.world_metrics()[0]->state()[1] == double(global), "the world's metric state counts every row");
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
        worst = std::max(worst, double(std::abs(model.grads()[i] - reference[i])) / (1e-3 + std::abs(reference[i])));
    check(worst < 1e-4, "the averaged gradient differs from the whole batch's by " + std::to_string(worst) + " (relative)");
    const std::vector<double>& rates = dp.throughput(100.0 * (c.rank() + 1));
    for (int r = 0; r < c.size(); ++r) check(rates[std::size_t(r)] == 100.0 * (r + 1), "rank rates");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const double timeout = argc > 2 ? std::atof(argv[2]) : 20;
    std::unique_ptr<lf::Communicator> c;
    try {
        c = lf::join_mpi_job(timeout);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    if (mode == "sums") {
        sums(*c);
    } else if (mode == "gradients") {
        gradients(*c);
    } else if (mode == "hang" || mode == "die") {
        if (c->rank() == 1) {
            if (mode == "die") raise(SIGKILL);
            for (;;) pause();  // alive, but never reaches the sum nor answers
        }
        double x = 1;
        c->sum(&x, 1, {"the test's sum", 3});
        check(false, "the sum completed without rank 1");
    } else {
        std::fprintf(stderr, "unknown mode '%s'\n", mode.c_str());
        return 2;
    }
    if (failures) std::fprintf(stderr, "rank %d: %d checks failed\n", c->rank(), failures);
    return failures ? 1 : 0;
}
