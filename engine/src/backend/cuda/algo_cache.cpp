#include "backend/cuda/algo_cache.h"

#include "layerforge/core/shape.h"
#include "layers/window.h"

namespace lf {

namespace {

const char* pass_name(ConvPass p) {
    switch (p) {
    case ConvPass::Forward: return "fwd";
    case ConvPass::BackwardData: return "bwd_data";
    case ConvPass::BackwardFilter: return "bwd_filter";
    }
    return "?";
}

std::string pair(std::int64_t a, std::int64_t b) { return std::to_string(a) + "," + std::to_string(b); }

}  // namespace

std::string to_string(const ConvAlgoKey& k) {
    return std::string(pass_name(k.pass)) + " n" + std::to_string(k.n) + " c" + std::to_string(k.c) + " h" +
           std::to_string(k.h) + " w" + std::to_string(k.w) + " k" + std::to_string(k.k) + " r" + std::to_string(k.r) +
           " s" + std::to_string(k.s) + " pad" + pair(k.pad_top, k.pad_bottom) + "," + pair(k.pad_left, k.pad_right) + " stride" + pair(k.stride_h, k.stride_w) +
           " dil" + pair(k.dilation_h, k.dilation_w) + " g" + std::to_string(k.groups) + " " + k.data_type + " " +
           k.math + " sm" + std::to_string(k.cc);
}

ConvAlgoKey conv_algo_key(ConvPass pass, std::int64_t batch, const Shape& in, std::int64_t filters, std::int64_t groups,
                          const Window2D& w, const std::string& data_type, const std::string& math, int cc) {
    ConvAlgoKey k;
    k.pass = pass;
    k.n = batch;
    k.h = in[0];
    k.w = in[1];
    k.c = in[2];
    k.k = filters;
    k.r = w.kernel[0];
    k.s = w.kernel[1];
    k.pad_top = w.pad_l[0];
    k.pad_bottom = w.pad_r[0];
    k.pad_left = w.pad_l[1];
    k.pad_right = w.pad_r[1];
    k.stride_h = w.stride[0];
    k.stride_w = w.stride[1];
    k.dilation_h = w.dilation[0];
    k.dilation_w = w.dilation[1];
    k.groups = groups;
    k.data_type = data_type;
    k.math = math;
    k.cc = cc;
    return k;
}

std::optional<ConvAlgoChoice> ConvAlgoCache::find(const ConvAlgoKey& key) const {
    std::lock_guard lock(mutex_);
    auto it = choices_.find(key);
    if (it == choices_.end()) {
        ++misses_;
        return std::nullopt;
    }
    ++hits_;
    return it->second;
}

ConvAlgoChoice ConvAlgoCache::insert(const ConvAlgoKey& key, const ConvAlgoChoice& choice) {
    std::lock_guard lock(mutex_);
    return choices_.emplace(key, choice).first->second;
}

std::size_t ConvAlgoCache::size() const {
    std::lock_guard lock(mutex_);
    return choices_.size();
}

std::size_t ConvAlgoCache::hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
}

std::size_t ConvAlgoCache::misses() const {
    std::lock_guard lock(mutex_);
    return misses_;
}

}  // namespace lf
