#include "runs_edit.h"

#include <algorithm>

#include "layerforge/core/error.h"
#include "runs_tensorboard.h"

namespace lf::cli {

namespace {

// The run ids from positional argument `from` on (at least one).
std::vector<std::int64_t> run_args(const Args& args, std::size_t from) {
    std::vector<std::int64_t> ids{run_arg(args, from)};
    for (std::size_t n = from + 1; n < args.positional().size(); ++n) ids.push_back(run_arg(args, n));
    return ids;
}

// tag/untag PROJECT RUN TAG...: adds or removes the tags.
int retag(bool add, const Args& args, const Reporter& out, RunStore& store) {
    const std::int64_t id = run_arg(args, 2);
    args.require(3, "TAG (one or more tags)");
    std::vector<std::string> tags = store.run(id).tags;
    for (std::size_t n = 3; n < args.positional().size(); ++n) {
        const std::string& t = args.positional()[n];
        if (add) tags.push_back(t);
        else tags.erase(std::remove(tags.begin(), tags.end(), t), tags.end());
    }
    store.set_tags(id, tags);
    tags = store.run(id).tags;
    std::string text;
    for (const std::string& t : tags) text += (text.empty() ? "" : ", ") + t;
    out.line("run " + std::to_string(id) + " tags: " + (text.empty() ? "(none)" : text));
    out.object({{"event", "tags"}, {"run", id}, {"tags", tags}});
    return 0;
}

int star(bool starred, const Args& args, const Reporter& out, RunStore& store) {
    for (std::int64_t id : run_args(args, 2)) store.run(id);  // every id exists before any changes
    for (std::int64_t id : run_args(args, 2)) {
        store.set_starred(id, starred);
        out.line("run " + std::to_string(id) + (starred ? " starred" : " unstarred"));
        out.object({{"event", "starred"}, {"run", id}, {"starred", starred}});
    }
    return 0;
}

int note(const Args& args, const Reporter& out, RunStore& store) {
    const std::int64_t id = run_arg(args, 2);
    const std::string& text = args.require(3, "TEXT (the note; \"\" clears it)");
    store.set_notes(id, text);
    out.line("run " + std::to_string(id) + (text.empty() ? " note cleared" : " note set"));
    out.object({{"event", "note"}, {"run", id}, {"notes", text}});
    return 0;
}

int remove(const Args& args, const Reporter& out, RunStore& store) {
    for (std::int64_t id : run_args(args, 2)) {
        const std::string name = store.run(id).name;
        store.delete_run(id);  // refuses a run that is training now, naming it
        out.line("deleted run " + std::to_string(id) + " (" + name + ")");
        out.object({{"event", "deleted"}, {"run", id}, {"name", name}});
    }
    return 0;
}

}  // namespace

int edit_runs(const std::string& sub, const Args& args, const Reporter& out, RunStore& store) {
    if (sub == "tag" || sub == "untag") return retag(sub == "tag", args, out, store);
    if (sub == "star" || sub == "unstar") return star(sub == "star", args, out, store);
    if (sub == "note") return note(args, out, store);
    return remove(args, out, store);
}

}  // namespace lf::cli
