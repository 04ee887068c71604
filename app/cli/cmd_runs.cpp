// layerforge-cli runs list|compare|export-csv|export-tensorboard|import-tensorboard|tag|untag|star|
// unstar|note|delete PROJECT ...: the runs recorded in PROJECT.lfruns.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/store/run_diff.h"
#include "progress.h"
#include "runs_edit.h"
#include "runs_tensorboard.h"

namespace lf::cli {

std::int64_t run_arg(const Args& args, std::size_t n) {
    const std::string& v = args.require(n, "RUN (a run id; see `layerforge-cli runs list`)");
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
        throw input_error("'" + v + "' is not a run id; see `layerforge-cli runs list`");
    return parse_integer(v, "RUN (a run id; see `layerforge-cli runs list`)");
}

namespace {

// From the store's summaries, never the metric rows: a listing of thousands of runs stays fast.
Json run_json(const RunSummary& s) {
    const RunInfo& r = s.info;
    return {{"id", r.id},           {"name", r.name},         {"status", to_string(r.status)},
            {"created", r.created}, {"finished", r.finished}, {"steps", r.last_step},
            {"epochs", r.last_epoch}, {"device", r.device},   {"precision", to_string(run_precision(r))},
            {"dataset", r.dataset_fingerprint},
            {"notes", r.notes},     {"tags", r.tags},         {"starred", r.starred},
            {"source", r.source},   {"checkpoints", s.checkpoints},
            {"final", metrics_json(s.final_metrics())}, {"best", metrics_json(s.best_metrics())}};
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
    return s;
}

int list(const Args& args, const Reporter& out, RunStore& store) {
    (void)args;
    Json all = Json::array();
    out.line("  id   name                  status         steps  epochs  ckpts  created               final");
    for (const RunSummary& s : store.run_summaries()) {
        const RunInfo& r = s.info;
        all.push_back(run_json(s));
        if (out.json()) continue;
        char buf[200];
        std::snprintf(buf, sizeof buf, "%4lld %s %-20.20s  %-13s %6lld  %6lld  %5lld  %-20s  ", (long long)r.id,
                      r.starred ? "*" : " ", r.name.c_str(), to_string(r.status), (long long)r.last_step,
                      (long long)r.last_epoch, (long long)s.checkpoints, r.created.c_str());
        std::string line = buf + metrics_text(s.final_metrics());
        if (!r.tags.empty()) line += "  [" + joined(r.tags) + "]";
        if (r.imported()) line += "  imported from " + r.source;
        out.line(line);
    }
    out.object({{"event", "runs"}, {"store", store.path()}, {"runs", all}});
    return 0;
}

int compare(const Args& args, const Reporter& out, RunStore& store) {
    const RunSummary sa = store.run_summary(run_arg(args, 2)), sb = store.run_summary(run_arg(args, 3));
    const RunInfo &a = sa.info, &b = sb.info;
    out.line(std::string("precision: ") + to_string(run_precision(a)) + " (run " + std::to_string(a.id) + "), " +
             to_string(run_precision(b)) + " (run " + std::to_string(b.id) + ")");
    Json diff = Json::array();
    out.line("settings that differ between run " + std::to_string(a.id) + " and run " + std::to_string(b.id) + ":");
    for (const SettingDifference& d : settings_diff(a, b)) {
        diff.push_back({{"key", d.key}, {"a", d.a.empty() ? Json() : Json::parse(d.a)},
                        {"b", d.b.empty() ? Json() : Json::parse(d.b)}});
        out.line("  " + d.key + ": " + (d.a.empty() ? "-" : d.a) + " -> " + (d.b.empty() ? "-" : d.b));
    }
    if (diff.empty()) out.line("  (none)");
    if (a.dataset_fingerprint != b.dataset_fingerprint)
        out.line("  dataset: " + a.dataset_fingerprint + " -> " + b.dataset_fingerprint);
    const Metrics ma = sa.final_metrics(), mb = sb.final_metrics();
    out.line("final metrics:");
    std::map<std::string, std::pair<double, double>> both;
    for (const auto& [k, v] : ma) both[k] = {v, std::nan("")};
    for (const auto& [k, v] : mb) {
        if (!both.count(k)) both[k] = {std::nan(""), v};
        else both[k].second = v;
    }
    for (const auto& [k, v] : both) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %-16s %12.6g %12.6g", k.c_str(), v.first, v.second);
        out.line(buf);
    }
    out.object({{"event", "compare"}, {"a", run_json(sa)}, {"b", run_json(sb)}, {"settings_diff", diff},
                {"same_dataset", a.dataset_fingerprint == b.dataset_fingerprint}});
    return 0;
}

std::string csv_number(double v) {
    if (std::isnan(v)) return "";
    return Json(v).dump();  // the shortest text that reads back as the same double
}

// Keras CSVLogger: "epoch" (0-based) then the metrics in sorted order, one row per epoch.
// --per-step: one row per recorded step with the running metrics.
int export_csv(const Args& args, const Reporter& out, RunStore& store) {
    const std::int64_t run = run_arg(args, 2);
    store.run(run);  // exists
    const bool per_step = args.flag("per-step");
    std::map<std::int64_t, std::map<std::string, double>> rows;  // epoch or step -> column -> value
    std::set<std::string> columns;
    for (const MetricRow& r : store.metrics(run)) {
        std::string col;
        if (per_step && r.split == "train") col = r.name;
        else if (!per_step && r.split == "epoch") col = r.name;
        else if (!per_step && r.split == "val") col = "val_" + r.name;
        else continue;
        columns.insert(col);
        rows[per_step ? r.step : r.epoch - 1][col] = r.value;
        if (per_step) rows[r.step]["epoch"] = double(r.epoch);
    }
    std::string text = per_step ? "step,epoch" : "epoch";
    for (const std::string& c : columns) text += "," + c;
    text += "\n";
    for (const auto& [key, values] : rows) {
        text += std::to_string(key);
        if (per_step) {
            text += ',';
            text += std::to_string(std::int64_t(values.at("epoch")));
        }
        for (const std::string& c : columns) {
            text += ',';
            if (values.count(c)) text += csv_number(values.at(c));
        }
        text += "\n";
    }
    if (auto path = args.value("out")) {
        std::ofstream f(*path, std::ios::binary);
        if (!(f << text)) throw input_error(*path + ": cannot write the CSV file; check the folder");
        out.line("wrote " + std::to_string(rows.size()) + " rows to " + *path);
        out.object({{"event", "export"}, {"run", run}, {"rows", rows.size()}, {"path", *path}});
    } else if (out.json()) {
        out.object({{"event", "export"}, {"run", run}, {"rows", rows.size()}, {"csv", text}});
    } else {
        std::fputs(text.c_str(), stdout);
    }
    return 0;
}

int run_runs(const Args& args, const Reporter& out) {
    const std::string& sub = args.subcommand({"list", "compare", "export-csv", "export-tensorboard", "import-tensorboard",
                                              "tag", "untag", "star", "unstar", "note", "delete"});
    const std::string& project = args.require(1, "PROJECT (a .lfproj file)");
    const bool importing = sub == "import-tensorboard";  // into a project that has no runs yet, too
    auto store = open_store(project, importing);
    if (sub == "list") return list(args, out, *store);
    if (sub == "compare") return compare(args, out, *store);
    if (sub == "export-csv") return export_csv(args, out, *store);
    if (sub == "export-tensorboard") return export_tensorboard(args, out, *store);
    if (importing) return import_tensorboard(args, out, *store);
    return edit_runs(sub, args, out, *store);  // tag, untag, star, unstar, note, delete
}

}  // namespace

Command runs_command() {
    return {{"runs", "runs list|compare|export-csv|export-tensorboard|import-tensorboard|tag|untag|star|unstar|note|delete "
                     "PROJECT ... [options]",
             "Lists the training runs recorded in PROJECT.lfruns (* marks a starred run); compares two runs\n"
             "(settings that differ and final metrics); exports a run's epoch metrics as CSV like Keras'\n"
             "CSVLogger; writes runs as TensorBoard event files, or reads a TensorBoard log folder's runs into\n"
             "the store; tags, stars, notes or deletes runs (a run training now cannot be deleted).\n"
             "  runs list PROJECT\n  runs compare PROJECT R1 R2\n  runs export-csv PROJECT R [--out FILE] [--per-step]\n"
             "  runs export-tensorboard PROJECT R... --out DIR\n  runs import-tensorboard PROJECT DIR\n"
             "  runs tag|untag PROJECT R TAG...\n  runs star|unstar PROJECT R...\n  runs note PROJECT R TEXT\n"
             "  runs delete PROJECT R...",
             {{"out", "FILE|DIR", "export-csv: write to FILE instead of standard output; export-tensorboard: the log folder"},
              {"per-step", "", "export-csv: one row per step instead of per epoch"},
              kJsonOption}},
            run_runs, false};
}

}  // namespace lf::cli
