#include "train/data_parallel.h"

#include <algorithm>
#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

std::vector<GradientBucket> make_buckets(const Model& model, std::size_t floats) {
    std::vector<const WeightRef*> refs;
    for (const WeightRef& r : model.weight_refs())
        if (r.trainable && r.size > 0) refs.push_back(&r);
    std::sort(refs.begin(), refs.end(), [](const WeightRef* a, const WeightRef* b) { return a->offset > b->offset; });
    std::vector<GradientBucket> out;
    for (const WeightRef* r : refs) {
        if (out.empty() || out.back().end - out.back().begin >= floats) out.push_back({r->offset, r->offset + r->size});
        else out.back().begin = r->offset;  // below the bucket's weights: trainable weights are contiguous
    }
    return out;
}

DataParallel::DataParallel(Communicator& comm, DeviceModel& device, const std::vector<std::unique_ptr<Metric>>& metrics,
                           std::size_t bucket_floats)
    : comm_(comm), model_(device.model()), exchange_(device.gradient_exchange(comm)), metrics_(metrics),
      buckets_(make_buckets(model_, bucket_floats)) {
    for (const auto& m : metrics) world_.push_back(make_metric(m->name()));
    pending_.resize(buckets_.size());
    started_.resize(buckets_.size());
    states_.resize(metrics.size());
    std::size_t width = 3;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        metrics[i]->read_state(states_[i]);
        width += states_[i].size();
    }
    totals_.resize(width);
    rates_.resize(std::size_t(comm.size()));
}

void DataParallel::broadcast_weights() {
    comm_.broadcast(model_.weights().data(), model_.weights().size(), 0, {"the start of training (rank 0's weights)", -1, true});
}

void DataParallel::broadcast_moving_statistics() {
    const std::size_t t = model_.trainable_size(), n = model_.weights().size();
    if (n > t) comm_.broadcast(model_.weights().data() + t, n - t, 0, {"the moving statistics before an evaluation"});
}

void DataParallel::attach(Plan& plan) {
    if (tables_.count(&plan)) return;
    const PlanProfile& steps = plan.profile();
    PlanTable t;
    t.refs_in_bucket.assign(buckets_.size(), 0);
    auto bucket_of = [&](std::size_t offset) {
        for (std::size_t b = 0; b < buckets_.size(); ++b)
            if (offset >= buckets_[b].begin && offset < buckets_[b].end) return b;
        throw runtime_error("data parallelism: a weight at offset " + std::to_string(offset) + " is in no bucket");
    };
    for (const LayerProfile& s : steps) {
        t.first.push_back(t.buckets.size());
        for (const WeightRef* r : model_.weights_of(s.node)) {
            if (!r->trainable || r->size == 0) continue;
            const std::size_t b = bucket_of(r->offset);
            t.buckets.push_back(b);
            ++t.refs_in_bucket[b];
        }
    }
    t.first.push_back(t.buckets.size());
    // The order backward() completes the buckets: every rank must start its sums in one order.
    std::vector<std::size_t> order;
    std::vector<int> left = t.refs_in_bucket;
    for (std::size_t i = steps.size(); i-- > 0;)
        for (std::size_t k = t.first[i]; k < t.first[i + 1]; ++k)
            if (--left[t.buckets[k]] == 0) order.push_back(t.buckets[k]);
    if (order.size() != buckets_.size())
        throw runtime_error("data parallelism: the plan's steps do not hold every trainable weight");
    if (order_.empty()) order_ = order;
    else if (order != order_) throw runtime_error("data parallelism: two plans of one model finish their weights in different orders");
    tables_.emplace(&plan, std::move(t));
    plan.set_backward_listener(this);
}

void DataParallel::begin_step(const Plan& plan, std::int64_t rows, std::int64_t global_rows, std::int64_t step) {
    const auto it = tables_.find(&plan);
    table_ = it == tables_.end() ? nullptr : &it->second;
    if (!table_) throw runtime_error("data parallelism: a training plan that was not attached");
    std::copy(table_->refs_in_bucket.begin(), table_->refs_in_bucket.end(), pending_.begin());
    std::fill(started_.begin(), started_.end(), 0);
    scale_ = global_rows > 0 ? float(double(rows) / double(global_rows)) : 0.f;
    step_ = step;
    rows_ = rows;
    global_rows_ = global_rows;
}

void DataParallel::skip_backward() {
    exchange_->scale(model_.trainable_size(), 0.f);
    for (std::size_t b : order_) start(b);
}

void DataParallel::on_step_done(std::size_t step) {
    if (!table_ || step + 1 >= table_->first.size()) return;
    for (std::size_t k = table_->first[step]; k < table_->first[step + 1]; ++k) {
        const std::size_t b = table_->buckets[k];
        if (--pending_[b] == 0) start(b);
    }
    exchange_->progress();
}

void DataParallel::start(std::size_t b) {
    if (started_[b]) return;
    started_[b] = 1;
    exchange_->start_sum(buckets_[b].begin, buckets_[b].end, scale_);
}

DataParallel::Totals DataParallel::finish_step(double loss_sum, bool stop) {
    for (std::size_t b : order_) start(b);  // a backend that does not report its steps
    totals_[0] = double(rows_);
    totals_[1] = loss_sum;
    totals_[2] = stop ? 1 : 0;
    pack_metrics(3);
    comm_.sum(totals_.data(), totals_.size(), {"the loss and metrics exchange", step_ + 1});
    exchange_->wait_all({"the gradient exchange", step_ + 1});
    unpack_metrics(3);
    Totals t{std::int64_t(totals_[0] + 0.5), totals_[1], totals_[2] > 0};
    // Files that failed to decode left fewer rows than the scale assumed.
    if (t.rows > 0 && t.rows != global_rows_)
        exchange_->scale(model_.trainable_size(), float(double(global_rows_) / double(t.rows)));
    return t;
}

void DataParallel::pack_metrics(std::size_t at) {
    for (std::size_t i = 0; i < metrics_.size(); ++i) {
        metrics_[i]->read_state(states_[i]);
        std::copy(states_[i].begin(), states_[i].end(), totals_.begin() + std::ptrdiff_t(at));
        at += states_[i].size();
    }
}

void DataParallel::unpack_metrics(std::size_t at) {
    for (std::size_t i = 0; i < world_.size(); ++i) {
        std::copy_n(totals_.begin() + std::ptrdiff_t(at), states_[i].size(), states_[i].begin());
        at += states_[i].size();
        world_[i]->set_state(states_[i]);
    }
}

void DataParallel::reduce_evaluation(double& loss_sum, std::int64_t& samples,
                                     const std::vector<std::unique_ptr<Metric>>& metrics) {
    std::vector<double> v = {loss_sum, double(samples)};
    std::vector<std::vector<double>> states(metrics.size());
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        metrics[i]->read_state(states[i]);
        v.insert(v.end(), states[i].begin(), states[i].end());
    }
    comm_.sum(v.data(), v.size(), {"the evaluation's totals"});
    loss_sum = v[0];
    samples = std::int64_t(v[1] + 0.5);
    std::size_t at = 2;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        std::copy_n(v.begin() + std::ptrdiff_t(at), states[i].size(), states[i].begin());
        at += states[i].size();
        metrics[i]->set_state(states[i]);
    }
}

const std::vector<double>& DataParallel::throughput(double mine) {
    std::fill(rates_.begin(), rates_.end(), 0.0);
    rates_[std::size_t(comm_.rank())] = mine;
    comm_.sum(rates_.data(), rates_.size(), {"the throughput exchange", step_ + 1});
    return rates_;
}

}  // namespace lf
