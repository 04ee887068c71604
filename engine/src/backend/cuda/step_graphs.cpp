#include "backend/cuda/step_graphs.h"

#include <cstdlib>
#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

namespace {

const char* pass_name(GraphPass p) { return p == GraphPass::Forward ? "forward" : "backward and update"; }

}  // namespace

std::string graphs_off_reason(bool option_on) {
    if (!option_on) return "CUDA graphs are off in the plan's options";
    if (const char* env = std::getenv("LF_CUDA_GRAPHS"))
        for (const char* off : {"0", "off", "false", "OFF", "FALSE"})
            if (std::strcmp(env, off) == 0) return std::string("CUDA graphs are off (LF_CUDA_GRAPHS=") + env + ")";
    return "";
}

StepGraphs::StepGraphs(const CudaContext& ctx, std::string off_reason) : ctx_(ctx), off_(std::move(off_reason)) {
    note(GraphPass::Forward, Ran::Never, nullptr);
}

StepGraphs::~StepGraphs() {
    for (auto& [key, e] : entries_) ctx_.api().graph_destroy(e.graph);
}

void StepGraphs::run(GraphPass pass, int variant, QueueRef queue, const char* eager_why) {
    if (!off_.empty() || eager_why) {
        queue();
        return note(pass, Ran::Eager, off_.empty() ? eager_why : off_.c_str());
    }
    Entry& e = entries_[{int(pass), variant}];  // allocates on a variant's first run only
    if (!e.failed.empty()) {
        queue();
        return note(pass, Ran::Eager, e.failed.c_str());
    }
    if (e.graph) {
        launch(e);
        return note(pass, Ran::Graph, nullptr);
    }
    if (e.runs++ == 0) {
        queue();
        return note(pass, Ran::Warmup, nullptr);
    }
    capture(e, pass, queue);
}

// Nothing queued while capturing runs: a failed capture leaves the pass to run eagerly now.
void StepGraphs::capture(Entry& e, GraphPass pass, QueueRef queue) {
    const lf_cuda_api& api = ctx_.api();
    lf_cuda_error err{};
    std::string failure;
    if (api.capture_begin(ctx_.get(), &err) != 0) {
        failure = err.text;
    } else {
        try {
            queue();
        } catch (const std::exception& x) {
            failure = x.what();
        }
        lf_cuda_error end_err{};
        lf_cuda_graph* g = api.capture_end(ctx_.get(), &end_err);
        if (failure.empty() && !g) failure = end_err.text;
        if (failure.empty()) e.graph = g;
        else api.graph_destroy(g);
    }
    if (!e.graph) {
        e.failed = std::string("its capture as a CUDA graph failed: ") + failure;
        queue();
        return note(pass, Ran::Eager, e.failed.c_str());
    }
    ++captured_;
    launch(e);
    note(pass, Ran::Graph, nullptr);
}

void StepGraphs::launch(const Entry& e) {
    ctx_.run([&](lf_cuda_error* err) { return ctx_.api().graph_launch(ctx_.get(), e.graph, err); },
             "replaying a captured pass");
    ++replayed_;
}

void StepGraphs::note(GraphPass pass, Ran ran, const char* why) {
    const std::size_t p = std::size_t(pass);
    if (ran_[p] == ran && (why_[p] == why || (why && why_[p] && std::strcmp(why, why_[p]) == 0)) &&
        !description_.empty())
        return;
    ran_[p] = ran;
    why_[p] = why;
    description_.clear();
    for (std::size_t i = 0; i < 2; ++i) {
        if (i) description_ += "; ";
        description_ += pass_name(GraphPass(i));
        description_ += ": ";
        switch (ran_[i]) {
        case Ran::Never: description_ += "not run yet"; break;
        case Ran::Warmup: description_ += "eager (its first run; captured as a CUDA graph on the next)"; break;
        case Ran::Graph: description_ += "replayed as a CUDA graph"; break;
        case Ran::Eager: description_ += std::string("eager (") + (why_[i] ? why_[i] : "") + ")"; break;
        }
    }
}

}  // namespace lf
