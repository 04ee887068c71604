// layerforge-cli checkpoints list|pin|unpin PROJECT ...: the checkpoints in PROJECT.lfruns.
#include <cstdio>

#include "command.h"
#include "layerforge/core/error.h"

namespace lf::cli {

namespace {

int run_checkpoints(const Args& args, const Reporter& out) {
    const std::string& sub = args.subcommand({"list", "pin", "unpin"});
    auto store = open_store(args.require(1, "PROJECT (a .lfproj file)"));
    if (sub == "list") {
        Json all = Json::array();
        out.line("  id  run  name            step  epoch  pinned       bytes  created               metrics");
        for (const CheckpointInfo& c : store->checkpoints(run_option(args))) {
            all.push_back(checkpoint_json(c));
            char buf[200];
            std::snprintf(buf, sizeof buf, "%4lld %4lld  %-12s %7lld %6lld  %-6s %11lld  %-20s  ", (long long)c.id,
                          (long long)c.run, c.name().c_str(), (long long)c.step, (long long)c.epoch,
                          c.pinned ? "yes" : "", (long long)c.bytes, c.created.c_str());
            out.line(buf + c.metrics);
        }
        out.object({{"event", "checkpoints"}, {"store", store->path()}, {"checkpoints", all}});
        return 0;
    }
    // pin, unpin
    CheckpointInfo c = store->resolve(args.require(2, "CHECKPOINT (id, ckpt-STEP, latest or best)"), run_option(args));
    store->set_pinned(c.id, sub == "pin");
    out.line("checkpoint " + std::to_string(c.id) + (sub == "pin" ? " pinned: retention keeps it" : " unpinned"));
    c.pinned = sub == "pin";
    Json j = checkpoint_json(c);
    j["event"] = sub;
    out.object(j);
    return 0;
}

}  // namespace

Command checkpoints_command() {
    return {{"checkpoints", "checkpoints list|pin|unpin PROJECT [CHECKPOINT] [--run R]",
             "Lists the checkpoints in PROJECT.lfruns (all runs, or run R); pins a checkpoint so that\n"
             "retention never deletes it, or unpins it. CHECKPOINT: id, ckpt-STEP, latest, best[:METRIC[:min|max]].",
             {{"run", "R", "only run R"}, kJsonOption}},
            run_checkpoints, false};
}

}  // namespace lf::cli
