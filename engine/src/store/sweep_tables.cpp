// The run store's sweeps and their trials (schema 5).
#include <cmath>

#include "layerforge/core/error.h"
#include "layerforge/store/run_store.h"
#include "store/sqlite.h"

namespace lf {

using store_detail::Stmt;
using store_detail::Transaction;

std::int64_t RunStore::create_sweep(const std::string& name, const std::string& spec,
                                    const std::vector<std::string>& trial_settings) {
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt taken(*db_, "SELECT 1 FROM sweeps WHERE name = ?");
    taken.bind(1, name);
    if (taken.step()) throw input_error(path() + ": there is already a sweep named '" + name + "'");
    taken.reset();
    Stmt(*db_, "INSERT INTO sweeps(name, created, spec) VALUES(?, ?, ?)").bind(1, name).bind(2, utc_now()).bind(3, spec).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_->handle());
    Stmt ins(*db_, "INSERT INTO sweep_trials(sweep, trial, settings) VALUES(?, ?, ?)");
    for (std::size_t i = 0; i < trial_settings.size(); ++i) ins.bind(1, id).bind(2, std::int64_t(i)).bind(3, trial_settings[i]).run();
    t.commit();
    return id;
}

std::vector<SweepInfo> RunStore::sweeps() {
    std::lock_guard lock(mutex_);
    std::vector<SweepInfo> out;
    Stmt s(*db_, "SELECT id, name, created, spec FROM sweeps ORDER BY id");
    while (s.step()) out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), {}});
    Stmt q(*db_, "SELECT trial, settings, coalesce(run, 0), status, objective, curve FROM sweep_trials "
                 "WHERE sweep = ? ORDER BY trial");
    for (SweepInfo& w : out) {
        q.bind(1, w.id);
        while (q.step())
            w.trials.push_back({q.integer(0), q.text(1), q.integer(2), q.text(3), q.is_null(4) ? std::nan("") : q.real(4),
                                q.text(5)});
        q.reset();
    }
    return out;
}

std::optional<SweepInfo> RunStore::sweep(const std::string& name) {
    for (SweepInfo& w : sweeps())
        if (w.name == name) return std::move(w);
    return std::nullopt;
}

void RunStore::update_trial(std::int64_t sweep, const SweepTrial& t) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "UPDATE sweep_trials SET run = ?, status = ?, objective = ?, curve = ? WHERE sweep = ? AND trial = ?");
    if (t.run) s.bind(1, t.run);
    else s.bind_null(1);
    s.bind(2, t.status);
    if (std::isfinite(t.objective)) s.bind(3, t.objective);
    else s.bind_null(3);
    s.bind(4, t.curve).bind(5, sweep).bind(6, t.index).run();
    if (sqlite3_changes(db_->handle()) == 0)
        throw input_error(path() + ": sweep " + std::to_string(sweep) + " has no trial " + std::to_string(t.index));
}

}  // namespace lf
