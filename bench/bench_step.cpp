// One training step of a template, for profiling and A/B comparisons on a shared machine: the
// step as the trainer takes it (the batch's upload, forward, loss, backward and update), a
// forward pass alone and the optimizer update alone, each timed by wall clock, plus the process
// CPU time per image (robust when other jobs take the cores), and the forward pass of an
// inference plan with the same options. Variants run in alternating rounds in one process
// (A B A B ...), so load changes hit both alike; each variant reports the median over rounds
// and the spread.
//
//   --fuse 1,0     the plan's rewrites on and off (PlanOptions::fuse: the ReLU rewrites, and
//                  in inference plans BatchNormalization folded into the convolution before it)
//   --precision float32,mixed_bfloat16   precision policies (each with every --fuse value)
//   --threads 1,2,0  the plans' OpenMP threads (PlanOptions::threads; 0: the engine's choice)
//   --update fused,plain  the step's update as the trainer runs it (Plan::backward_and_update: on
//                  the CPU the update makes the weight copies), or the backward pass and then
//                  DeviceModel::update, the passes making the copies (as before 2026-12-05)
//   --kernels      print each step's compute type, ms per pass and oneDNN implementation per variant
//
// Usage: bench_step [--project FILE] [--batch 50] [--steps 20] [--rounds 6] [--fuse 1,0]
//                   [--precision P,...] [--threads N,...] [--update fused,plain] [--kernels]
// Data are random inputs and labels: the work per step does not depend on the values.
#include <omp.h>

#include <cstdio>
#include <ctime>
#include <map>
#include <random>


#include "bench_common.h"
#include "training_rig.h"

namespace {

using namespace bench;

double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Round {
    // ms per step: a forward pass alone, the trainer's step (forward, loss, backward and update:
    // Plan::backward_and_update, which on the CPU makes the weight copies as it updates), the
    // optimizer's update alone (DeviceModel::update); CPU ms per image of the steps.
    double forward = 0, step = 0, update = 0, cpu_per_image = 0;
    double inference = 0, inference_cpu_per_image = 0;  // the inference plan's forward
    double backward() const { return step - forward; }   // the loss, backward and update
};

class Variant {
public:
    Variant(const lf::Project& p, std::int64_t batch, bool fuse, lf::Precision precision, int threads, bool fused_update)
        : fuse(fuse), precision(precision), threads(threads), fused_update(fused_update),
          rig_(p.graph, batch, fuse, p.training.loss, p.training.loss_params, p.training.optimizer.type,
               p.training.optimizer.params, precision, threads) {}

    std::string name() const {
        return std::string(fuse ? "fuse on, " : "fuse off, ") + lf::to_string(precision) + ", " +
               (threads ? std::to_string(threads) : "auto=" + std::to_string(rig_.plan->threads())) + " thr" +
               (fused_update ? "" : ", plain update");
    }

    // The kernels' times from here on: the warm-up's first passes (page faults, oneDNN's
    // first calls) took several times a step's and would dominate the small layers' means.
    void start_kernel_clock() { warm_ = rig_.plan->profile(); }

    void print_kernels() const {
        std::printf("%s:\n", name().c_str());
        const lf::PlanProfile& profile = rig_.plan->profile();
        std::printf("  %-28s %-9s %9s %9s  %s\n", "step", "computes", "fwd ms", "bwd ms", "oneDNN implementation");
        auto mean_ms = [](std::int64_t ns, std::int64_t count) { return count ? double(ns) / 1e6 / double(count) : 0.0; };
        for (const auto& [node, impl] : rig_.plan->kernels())
            for (std::size_t i = 0; i < profile.size(); ++i)
                if (const lf::LayerProfile& l = profile[i], &w = warm_.at(i); l.node == node)
                    std::printf("  %-28s %-9s %9.3f %9.3f  %s\n", node.c_str(), lf::to_string(l.compute),
                                mean_ms(l.forward_ns - w.forward_ns, l.forwards - w.forwards),
                                mean_ms(l.backward_ns - w.backward_ns, l.backwards - w.backwards), impl.c_str());
    }

    const bool fuse;
    const lf::Precision precision;
    const int threads;
    const bool fused_update;

    // Mean milliseconds per step of each part over `steps` steps; the training steps' CPU time.
    Round run(int steps) {
        Round r;
        for (int s = 0; s < steps; ++s) {  // inference-style forward passes of the training plan
            auto t = Clock::now();
            rig_.plan->forward();
            r.forward += ms_since(t);
        }
        const double cpu0 = cpu_ms();
        for (int s = 0; s < steps; ++s) {
            auto t = Clock::now();
            if (fused_update) rig_.train_step();
            else rig_.train_step_plain();
            r.step += ms_since(t);
        }
        r.cpu_per_image = (cpu_ms() - cpu0) / double(steps * rig_.batch);
        for (int s = 0; s < steps; ++s) {
            auto t = Clock::now();
            rig_.update();
            r.update += ms_since(t);
        }
        const double cpu1 = cpu_ms();
        for (int s = 0; s < steps; ++s) {
            auto t = Clock::now();
            rig_.infer->forward();
            r.inference += ms_since(t);
        }
        r.inference_cpu_per_image = (cpu_ms() - cpu1) / double(steps * rig_.batch);
        for (double* v : {&r.forward, &r.step, &r.update, &r.inference}) *v /= steps;
        return r;
    }

private:
    TrainingRig rig_;
    lf::PlanProfile warm_;
};

void usage() {
    std::fprintf(stderr, "usage: bench_step [--project FILE] [--batch N] [--steps N] [--rounds N] [--fuse 1,0] "
                         "[--precision float32,mixed_bfloat16] [--threads N,...] [--update fused,plain] [--kernels]\n");
}

}  // namespace

int main(int argc, char** argv) {
    std::string project = std::string(LF_SOURCE_DIR) + "/resources/templates/fashion_cnn.lfproj";
    std::int64_t batch = 50;
    int steps = 20, rounds = 6;
    std::vector<int> threads{0};
    std::vector<bool> fuse{true, false};
    std::vector<lf::Precision> precisions{lf::Precision::Float32};
    std::vector<bool> updates{true};
    bool kernels = false;
    const int stop = parse_options(argc, argv, usage, [&](const std::string& a, auto& value) {
        if (a == "--project") project = value();
        else if (a == "--batch") batch = std::stoll(value());
        else if (a == "--steps") steps = std::stoi(value());
        else if (a == "--rounds") rounds = std::stoi(value());
        else if (a == "--threads") {
            threads.clear();
            for (const std::string& t : split_list(value())) threads.push_back(std::stoi(t));
        }
        else if (a == "--kernels") kernels = true;
        else if (a == "--update") {
            updates.clear();
            for (const std::string& u : split_list(value())) {
                if (u != "fused" && u != "plain") return false;
                updates.push_back(u == "fused");
            }
        }
        else if (a == "--precision") {
            precisions.clear();
            for (const std::string& name : split_list(value())) {
                auto p = lf::parse_precision(name);
                if (!p) return false;
                precisions.push_back(*p);
            }
        }
        else if (a == "--fuse") {
            fuse.clear();
            for (const char* c = value(); *c; ++c)
                if (*c == '0' || *c == '1') fuse.push_back(*c == '1');
        } else return false;
        return true;
    });
    if (stop >= 0) return stop;
    try {
        lf::Project p = lf::load_project(project);
        std::vector<std::unique_ptr<Variant>> variants;
        for (lf::Precision precision : precisions)
            for (bool f : fuse)
                for (int t : threads)
                    for (bool u : updates) variants.push_back(std::make_unique<Variant>(p, batch, f, precision, t, u));
        for (auto& v : variants) {
            v->run(2);  // warm-up: first-touch pages, oneDNN's caches
            v->start_kernel_clock();
        }
        std::vector<std::vector<Round>> rows(variants.size());
        for (int r = 0; r < rounds; ++r)
            for (std::size_t i = 0; i < variants.size(); ++i) rows[i].push_back(variants[i]->run(steps));
        std::printf("%s, batch %lld, %d rounds of %d steps, OpenMP threads %d; ms per step, median [min..max] "
                    "over rounds\n", p.name.c_str(), (long long)batch, rounds, steps, omp_get_max_threads());
        std::printf("%-40s | %-22s | %-22s | %-22s | %-22s | %-18s | %-22s | %-18s | %s\n", "variant", "forward",
                    "loss+backward+update", "update alone", "step", "CPU ms per image", "inference forward",
                    "inference CPU ms/img", "images/s (median step)");
        for (std::size_t i = 0; i < variants.size(); ++i) {
            auto col = [&](double (*get)(const Round&)) {
                std::vector<double> v;
                for (const Round& r : rows[i]) v.push_back(get(r));
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.3f [%.3f..%.3f]", percentile(v, 0.5), percentile(v, 0),
                              percentile(v, 1));
                return std::string(buf);
            };
            std::vector<double> step;
            for (const Round& r : rows[i]) step.push_back(r.step);
            std::printf("%-40s | %-22s | %-22s | %-22s | %-22s | %-18s | %-22s | %-18s | %.0f\n",
                        variants[i]->name().c_str(),
                        col([](const Round& r) { return r.forward; }).c_str(),
                        col([](const Round& r) { return r.backward(); }).c_str(),
                        col([](const Round& r) { return r.update; }).c_str(),
                        col([](const Round& r) { return r.step; }).c_str(),
                        col([](const Round& r) { return r.cpu_per_image; }).c_str(),
                        col([](const Round& r) { return r.inference; }).c_str(),
                        col([](const Round& r) { return r.inference_cpu_per_image; }).c_str(),
                        1000.0 * double(batch) / percentile(step, 0.5));
        }
        if (kernels)  // times per pass after the warm-up
            for (auto& v : variants) v->print_kernels();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_step: %s\n", e.what());
        return 1;
    }
    return 0;
}
