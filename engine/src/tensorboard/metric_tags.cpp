#include "layerforge/tensorboard/metric_tags.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

namespace lf::tensorboard {

namespace {

std::string tag_name(const std::string& name) { return name == "lr" ? "learning_rate" : name; }
std::string metric_name(const std::string& tag) { return tag == "learning_rate" ? "lr" : tag; }

bool strip(const std::string& tag, const char* prefix, std::string& rest) {
    if (tag.rfind(prefix, 0) != 0 || tag.size() == std::strlen(prefix)) return false;
    rest = tag.substr(std::strlen(prefix));
    return true;
}

// Split and name of a scalar read from `part`; `per_epoch` says it is logged once per epoch.
void place(const std::string& part, const std::string& tag, std::string& split, std::string& name, bool& per_epoch) {
    std::string rest;
    per_epoch = false;
    if (part == "validation") {
        per_epoch = strip(tag, "epoch_", rest);
        split = "val";
        name = per_epoch ? metric_name(rest) : tag;
    } else if (strip(tag, "batch_", rest)) {
        split = "train", name = metric_name(rest);
    } else if (strip(tag, "epoch_", rest)) {
        split = "epoch", name = metric_name(rest), per_epoch = true;
    } else if (strip(tag, "test_", rest)) {
        split = "test", name = rest;
    } else {
        split = "train", name = tag;
    }
}

// Which epoch each step falls in, from the steps where epochs ended.
class EpochIndex {
public:
    EpochIndex(std::vector<std::int64_t> ends, std::int64_t last_step) : ends_(std::move(ends)) {
        // Keras logs epoch_* at the epoch's index (0, 1, ...), far below its batch steps: then
        // an epoch is taken to be an equal share of the steps.
        const auto n = std::int64_t(ends_.size());
        keras_ = n > 0 && ends_.front() == 0 && ends_.back() == n - 1 && last_step > n - 1;
        if (keras_) steps_per_epoch_ = double(last_step) / double(n);
    }
    bool known() const { return !ends_.empty(); }
    // 1-based: the n-th distinct epoch end is epoch n.
    std::int64_t epoch_ending_at(std::int64_t step) const {
        return std::lower_bound(ends_.begin(), ends_.end(), step) - ends_.begin() + 1;
    }
    std::int64_t epoch_of(std::int64_t step) const {
        if (!known()) return 0;
        if (keras_)
            return std::clamp<std::int64_t>(std::int64_t(std::ceil(double(step) / steps_per_epoch_)), 1,
                                            std::int64_t(ends_.size()));
        return epoch_ending_at(step);
    }
    // The optimizer step an epoch_* point stands for.
    std::int64_t end_step(std::int64_t logged_step) const {
        return keras_ ? std::llround(double(logged_step + 1) * steps_per_epoch_) : logged_step;
    }

private:
    std::vector<std::int64_t> ends_;
    bool keras_ = false;
    double steps_per_epoch_ = 0;
};

// Calls f(split, name, per_epoch, points) for every tag of every part of the run.
template <class F>
void for_each_series(const LogRun& run, F&& f) {
    for (const auto& [part, series] : run.parts)
        for (const auto& [tag, points] : series) {
            std::string split, name;
            bool per_epoch = false;
            place(part, tag, split, name, per_epoch);
            f(split, name, per_epoch, points);
        }
}

EpochIndex epoch_index(const LogRun& run) {
    std::set<std::int64_t> ends;
    std::int64_t last_step = 0;
    for_each_series(run, [&](const std::string& split, const std::string&, bool per_epoch,
                             const std::vector<ScalarPoint>& points) {
        for (const ScalarPoint& p : points) {
            if (per_epoch) ends.insert(p.step);
            else if (split == "train") last_step = std::max(last_step, p.step);
        }
    });
    return EpochIndex(std::vector<std::int64_t>(ends.begin(), ends.end()), last_step);
}

}  // namespace

Slot slot_for(const std::string& split, const std::string& name) {
    if (split == "train") return {"train", "batch_" + tag_name(name)};
    if (split == "epoch") return {"train", "epoch_" + tag_name(name)};
    if (split == "val") return {"validation", "epoch_" + tag_name(name)};
    if (split == "test") return {"train", "test_" + name};
    return {"train", split + "_" + name};
}

std::vector<MetricRow> rows_from_log(const LogRun& run, std::int64_t run_id) {
    const EpochIndex epochs = epoch_index(run);
    std::vector<MetricRow> rows;
    rows.reserve(run.points());
    for_each_series(run, [&](const std::string& split, const std::string& name, bool per_epoch,
                             const std::vector<ScalarPoint>& points) {
        for (const ScalarPoint& p : points) {
            MetricRow r{run_id, p.step, 0, split, name, p.value, p.wall_time};
            if (per_epoch) {
                r.epoch = epochs.epoch_ending_at(p.step);
                r.step = epochs.end_step(p.step);
            } else if (split != "test") {
                r.epoch = epochs.epoch_of(p.step);
            }
            rows.push_back(std::move(r));
        }
    });
    return rows;
}

}  // namespace lf::tensorboard
