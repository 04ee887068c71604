// Loss factory and the label check every loss runs first.
#include "layerforge/core/error.h"
#include "layerforge/core/registry.h"
#include "train/loss_impl.h"
#include "train/param_reader.h"

namespace lf {

namespace train_detail {

void check_labels(const char* loss, const LossBatch& b) {
    const std::int64_t limit = b.c > 1 ? b.c : 2;  // c == 1: the label is the 0/1 target
    for (std::int64_t i = 0; i < b.n; ++i) {
        if (b.labels[i] < 0 || b.labels[i] >= limit)
            throw input_error(std::string(loss) + ": label " + std::to_string(b.labels[i]) + " of sample " +
                              std::to_string(i) + " is outside [0, " + std::to_string(limit - 1) + "]");
    }
}

}  // namespace train_detail

namespace {

Registry<LossSpec, &LossSpec::type>& added() {
    static Registry<LossSpec, &LossSpec::type> r;
    return r;
}

}  // namespace

std::vector<std::string> loss_types() {
    std::vector<std::string> types = {"SparseCategoricalCrossentropy", "CategoricalCrossentropy",
                                      "BinaryCrossentropy", "MeanSquaredError"};
    for (const LossSpec& s : added().all()) types.push_back(s.type);
    return types;
}

void add_loss(LossSpec spec) {
    const std::string what = "loss '" + spec.type + "'";
    for (const auto& t : loss_types())
        if (t == spec.type) throw input_error(what + " is registered twice");
    added().add(std::move(spec), what);
}

const LossSpec* find_added_loss(const std::string& type) { return added().find(type); }

void freeze_losses() { added().freeze(); }
bool losses_frozen() { return added().frozen(); }

std::unique_ptr<Loss> make_loss(const std::string& type, const Params& params) {
    using namespace train_detail;
    if (type == "MeanSquaredError") {
        ParamReader(type, params, {});
        return make_mean_squared_error();
    }
    const bool known = type == "SparseCategoricalCrossentropy" || type == "CategoricalCrossentropy" ||
                       type == "BinaryCrossentropy";
    if (!known) {
        if (const LossSpec* plugin = find_added_loss(type)) return plugin->make(params);
        std::string valid;
        for (const auto& t : loss_types()) valid += (valid.empty() ? "" : ", ") + t;
        throw input_error("unknown loss '" + type + "' (valid: " + valid + ")");
    }
    const bool from_logits = ParamReader(type, params, {"from_logits"}).flag("from_logits", false);
    if (type == "BinaryCrossentropy") return make_binary_crossentropy(from_logits);
    return make_categorical_crossentropy(type, type == "SparseCategoricalCrossentropy", from_logits);
}

}  // namespace lf
