// layerforge-cli runs list|compare|export-csv|export-tensorboard|import-tensorboard PROJECT ...:
// the runs recorded in PROJECT.lfruns.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/store/run_diff.h"
#include "progress.h"
#include "runs_tensorboard.h"

namespace lf::cli {

std::int64_t run_arg(const Args& args, std::size_t n) {
    const std::string& v = args.require(n, "RUN (a run id; see `layerforge-cli runs list`)");
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
        throw input_error("'" + v + "' is not a run id; see `layerforge-cli runs list`");
    return parse_integer(v, "RUN (a run id; see `layerforge-cli runs list`)");
}

namespace {

// The last value of every epoch, validation and test metric: "loss", "val_loss", "test_accuracy", "lr".
Metrics final_metrics(RunStore& store, std::int64_t run) {
    std::map<std::string, double> last;
    for (const MetricRow& r : store.metrics(run)) {
        if (r.split == "epoch") last[r.name] = r.value;
        else if (r.split == "val" || r.split == "test") last[r.split + "_" + r.name] = r.value;
    }
    return Metrics(last.begin(), last.end());
}

Json run_json(RunStore& store, const RunInfo& r) {
    return {{"id", r.id},           {"name", r.name},         {"status", to_string(r.status)},
            {"created", r.created}, {"finished", r.finished}, {"steps", r.last_step},
            {"epochs", r.last_epoch}, {"device", r.device},   {"precision", to_string(run_precision(r))},
            {"dataset", r.dataset_fingerprint},
            {"notes", r.notes},     {"checkpoints", store.checkpoints(r.id).size()},
            {"final", metrics_json(final_metrics(store, r.id))}};
}

int list(const Args& args, const Reporter& out, RunStore& store) {
    (void)args;
    Json all = Json::array();
    out.line("  id  name                  status         steps  epochs  ckpts  created               final");
    for (const RunInfo& r : store.runs()) {
        Json j = run_json(store, r);
        all.push_back(j);
        char buf[200];
        std::snprintf(buf, sizeof buf, "%4lld  %-20.20s  %-13s %6lld  %6lld  %5zu  %-20s  ", (long long)r.id,
                      r.name.c_str(), to_string(r.status), (long long)r.last_step, (long long)r.last_epoch,
                      j["checkpoints"].get<std::size_t>(), r.created.c_str());
        out.line(buf + metrics_text(final_metrics(store, r.id)));
    }
    out.object({{"event", "runs"}, {"store", store.path()}, {"runs", all}});
    return 0;
}

int compare(const Args& args, const Reporter& out, RunStore& store) {
    RunInfo a = store.run(run_arg(args, 2)), b = store.run(run_arg(args, 3));
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
    Metrics ma = final_metrics(store, a.id), mb = final_metrics(store, b.id);
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
    out.object({{"event", "compare"}, {"a", run_json(store, a)}, {"b", run_json(store, b)}, {"settings_diff", diff},
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
    const std::string& sub =
        args.require(0, "a subcommand: list, compare, export-csv, export-tensorboard or import-tensorboard");
    const std::string& project = args.require(1, "PROJECT (a .lfproj file)");
    const bool importing = sub == "import-tensorboard";  // into a project that has no runs yet, too
    auto store = open_store(project, importing);
    if (sub == "list") return list(args, out, *store);
    if (sub == "compare") return compare(args, out, *store);
    if (sub == "export-csv") return export_csv(args, out, *store);
    if (sub == "export-tensorboard") return export_tensorboard(args, out, *store);
    if (importing) return import_tensorboard(args, out, *store);
    throw input_error("unknown subcommand 'runs " + sub +
                      "' (list, compare, export-csv, export-tensorboard, import-tensorboard)");
}

}  // namespace

Command runs_command() {
    return {{"runs", "runs list|compare|export-csv|export-tensorboard|import-tensorboard PROJECT ... [options]",
             "Lists the training runs recorded in PROJECT.lfruns; compares two runs (settings that differ\n"
             "and final metrics); exports a run's epoch metrics as CSV like Keras' CSVLogger; writes runs as\n"
             "TensorBoard event files, or reads a TensorBoard log folder's runs into the store.\n"
             "  runs list PROJECT\n  runs compare PROJECT R1 R2\n  runs export-csv PROJECT R [--out FILE] [--per-step]\n"
             "  runs export-tensorboard PROJECT R... --out DIR\n  runs import-tensorboard PROJECT DIR",
             {{"out", "FILE|DIR", "export-csv: write to FILE instead of standard output; export-tensorboard: the log folder"},
              {"per-step", "", "export-csv: one row per step instead of per epoch"},
              kJsonOption}},
            run_runs};
}

}  // namespace lf::cli
