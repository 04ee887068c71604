// What data parallelism costs and gives, per template: run under mpirun, e.g.
//   OMPI_MCA_mpi_yield_when_idle=1 LF_MPI_MODULE=build/app/liblayerforge_mpi.so \
//     mpirun -np 2 build/bench/allreduce_bench
// For each template it prints the trainable gradient's size, the median time of its bucketed
// all-reduce between the ranks here (DataParallel's buckets, through liblayerforge_mpi.so, 15
// rounds after 3 warm-ups, with the spread), the median single-process training step at batch
// 50 here, and on paper (ring all-reduce, 2 (N - 1) / N of the bytes over the slowest link
// plus 2 (N - 1) latencies) the exchange for 8 GPUs on NVLink and 64 machines at 100 Gb/s.
// docs/scaling.md holds the figures and what they mean.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "layerforge/devices/devices.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "mpi_loader.h"
#include "train/data_parallel.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Median {
    double median, low, high;
};

Median median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

// Ring all-reduce on paper: bytes over a link of `gbps` gigabytes per second, `latency` seconds per hop.
double ring_seconds(double bytes, int n, double gbps, double latency) {
    return 2.0 * (n - 1) / n * bytes / (gbps * 1e9) + 2.0 * (n - 1) * latency;
}

// One single-process training step of the model at batch 50 (forward, loss, backward), median of 10.
double step_seconds(lf::Model& model) {
    auto device = lf::load_model(model, "cpu");
    lf::PlanOptions o;
    o.batch = 50;
    auto plan = device->make_plan(o);
    lf::HostLoss host(*plan);
    const std::unique_ptr<lf::Loss> loss = lf::make_loss("SparseCategoricalCrossentropy", {});
    std::vector<float> x(std::size_t(o.batch * plan->input_width()), 0.5f);
    std::vector<std::int32_t> y(std::size_t(o.batch), 1);
    std::vector<double> t;
    for (int i = 0; i < 12; ++i) {
        const auto start = Clock::now();
        plan->set_input(x.data());
        host.train_step(*loss, y.data());
        if (i >= 2) t.push_back(seconds_since(start));
    }
    return median_of(t).median;
}

}  // namespace

int main() {
    std::unique_ptr<lf::Communicator> c = lf::join_mpi_job(60);
    const bool lead = c->rank() == 0;
    if (lead)
        std::printf("%-20s %10s %9s %22s %10s %12s %12s\n", "template", "gradient", "MB", "all-reduce here (ms)",
                    "step (ms)", "8 NVLink ms", "64x100Gb ms");
    for (const char* name : {"fashion_mlp", "fashion_cnn", "fashion_functional", "fashion_resnet", "mobilenet_v2_small",
                             "cats_vs_dogs_cnn"}) {
        const lf::Project p = lf::load_project(std::string(LF_SOURCE_DIR) + "/resources/templates/" + name + ".lfproj");
        lf::Model model(p.graph);
        model.init_weights(1);
        const std::vector<lf::GradientBucket> buckets = lf::make_buckets(model, lf::DataParallel::kBucketFloats);
        const std::size_t floats = model.trainable_size();
        std::vector<double> t;
        for (int round = 0; round < 18; ++round) {
            double sync = 0;
            c->sum(&sync, 1, {"the benchmark's barrier"});  // start together
            const auto start = Clock::now();
            for (const lf::GradientBucket& b : buckets) c->start_sum(model.grads().data() + b.begin, b.end - b.begin);
            c->wait_all({"the benchmark's all-reduce"});
            if (round >= 3) t.push_back(seconds_since(start));
        }
        const Median m = median_of(t);
        const double step = lead ? step_seconds(model) : 0;
        if (lead) {
            const double bytes = double(floats) * 4;
            std::printf("%-20s %10zu %9.2f %8.3f [%.3f..%.3f] %10.2f %12.3f %12.2f\n", name, floats, bytes / 1e6,
                        m.median * 1e3, m.low * 1e3, m.high * 1e3, step * 1e3,
                        ring_seconds(bytes, 8, 300, 5e-6) * 1e3,  // NCCL's bus bandwidth on H100/H200 NVLink
                        ring_seconds(bytes, 64, 11, 20e-6) * 1e3);  // 100 Gb/s less protocol overhead
        }
    }
    if (lead) std::printf("ranks: %d on %s\n", c->size(), c->host(0).c_str());
    return 0;
}
