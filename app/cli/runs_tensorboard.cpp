// layerforge-cli runs export-tensorboard PROJECT RUN... --out DIR: recorded runs as TensorBoard
// log folders; runs import-tensorboard PROJECT DIR: every run folder under DIR into the store.
#include "runs_tensorboard.h"

#include "layerforge/core/error.h"
#include "layerforge/tensorboard/run_exchange.h"

namespace lf::cli {

namespace {

Json damage_json(const tensorboard::Damage& d) {
    return {{"file", d.file}, {"offset", d.offset}, {"problem", d.what}, {"events_read", d.events_before}};
}

}  // namespace

int export_tensorboard(const Args& args, const Reporter& out, RunStore& store) {
    const std::optional<std::string> dir = args.value("out");
    if (!dir || dir->empty()) throw input_error("runs export-tensorboard needs --out DIR, the TensorBoard log folder");
    std::vector<std::int64_t> runs{run_arg(args, 2)};
    for (std::size_t i = 3; i < args.positional().size(); ++i) runs.push_back(run_arg(args, i));
    for (std::int64_t r : runs) store.run(r);  // every id exists before anything is written
    Json all = Json::array();
    for (std::int64_t r : runs) {
        const tensorboard::ExportedRun e = tensorboard::export_run(store, r, *dir);
        out.line("run " + std::to_string(r) + ": " + std::to_string(e.points) + " points to " + e.folder);
        all.push_back({{"run", r}, {"folder", e.folder}, {"files", e.files}, {"points", e.points}});
    }
    out.line("view them with: tensorboard --logdir " + *dir);
    out.object({{"event", "export_tensorboard"}, {"out", *dir}, {"runs", all}});
    return 0;
}

int import_tensorboard(const Args& args, const Reporter& out, RunStore& store) {
    const std::string& dir = args.require(2, "DIR (a TensorBoard log folder, as given to tensorboard --logdir)");
    const tensorboard::ImportResult r = tensorboard::import_log_folder(store, dir);
    Json imported = Json::array(), damage = Json::array();
    for (const tensorboard::ImportedRun& i : r.imported) {
        out.line("imported run " + std::to_string(i.run) + " '" + i.name + "': " + std::to_string(i.points) +
                 " points from " + i.folder);
        imported.push_back({{"run", i.run}, {"name", i.name}, {"folder", i.folder}, {"points", i.points}});
    }
    for (const std::string& s : r.skipped) out.line("skipped " + s);
    for (const tensorboard::Damage& d : r.damage) {
        out.line("damaged: " + d.text());
        damage.push_back(damage_json(d));
    }
    out.object({{"event", "import_tensorboard"}, {"folder", dir}, {"imported", imported}, {"skipped", r.skipped},
                {"damage", damage}});
    if (r.imported.empty())
        throw runtime_error("nothing imported from " + dir + ": no folder under it holds TensorBoard scalars " +
                            "not imported before");
    return 0;
}

}  // namespace lf::cli
