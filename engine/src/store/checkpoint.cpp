#include "layerforge/store/checkpoint.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_numbers.h"
#include "layerforge/core/error.h"
#include "layerforge/core/limits.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"

namespace lf {

namespace {

using Json = nlohmann::json;
constexpr const char* kMetaKey = "layerforge_checkpoint";
constexpr int kCheckpointFormat = 1;

// JSON has no NaN or infinity; callbacks start with a NaN best.
Json num(double d) {
    if (std::isnan(d)) return nullptr;
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    return d;
}
double num(const Json& j) {
    if (j.is_null()) return std::nan("");
    if (j.is_string()) return j.get<std::string>() == "inf" ? INFINITY : -INFINITY;
    return j.get<double>();
}

Json state_json(const TrainState& s) {
    Json j = {{"epoch", s.epoch}, {"step_in_epoch", s.step_in_epoch}, {"iterations", s.iterations},
              {"steps_per_epoch", s.steps_per_epoch}, {"shuffle_rng", s.shuffle_rng}, {"loss_sum", num(s.loss_sum)},
              {"seen", s.seen}, {"learning_rate", num(s.learning_rate)}, {"lr_scale", num(s.lr_scale)}};
    Json metrics = Json::array();
    for (const auto& [name, values] : s.metric_states) {
        Json v = Json::array();
        for (double d : values) v.push_back(num(d));
        metrics.push_back({{"name", name}, {"state", v}});
    }
    j["metric_states"] = metrics;
    if (s.early_stopping)
        j["early_stopping"] = {{"best", num(s.early_stopping->best)}, {"best_epoch", s.early_stopping->best_epoch},
                               {"wait", s.early_stopping->wait}, {"last_improved", s.early_stopping->last_improved}};
    if (s.reduce_lr)
        j["reduce_lr_on_plateau"] = {{"best", num(s.reduce_lr->best)}, {"scale", num(s.reduce_lr->scale)},
                                     {"wait", s.reduce_lr->wait}, {"cooldown_left", s.reduce_lr->cooldown_left}};
    if (s.loss_scale) j["loss_scale"] = {{"scale", num(s.loss_scale->scale)}, {"good_steps", s.loss_scale->good_steps}};
    return j;
}

// An integer field of the header (a float there would be converted with undefined behaviour).
// Thrown as Json's own type error, which restore_checkpoint reports as a damaged header.
std::int64_t integer(const Json& j, const char* key) {
    if (auto v = detail::json_int64(j.at(key))) return *v;
    throw Json::type_error::create(302, std::string("'") + key + "' is not an integer", &j);
}

TrainState state_from(const Json& j) {
    TrainState s;
    s.epoch = integer(j, "epoch");
    s.step_in_epoch = integer(j, "step_in_epoch");
    s.iterations = integer(j, "iterations");
    s.steps_per_epoch = integer(j, "steps_per_epoch");
    s.shuffle_rng = j.at("shuffle_rng");
    s.loss_sum = num(j.at("loss_sum"));
    s.seen = integer(j, "seen");
    s.learning_rate = num(j.at("learning_rate"));
    s.lr_scale = num(j.at("lr_scale"));
    for (const Json& m : j.at("metric_states")) {
        std::vector<double> v;
        for (const Json& d : m.at("state")) v.push_back(num(d));
        s.metric_states.emplace_back(m.at("name"), v);
    }
    if (j.contains("early_stopping")) {
        const Json& e = j["early_stopping"];
        s.early_stopping = EarlyStopping::State{num(e.at("best")), integer(e, "best_epoch"), integer(e, "wait"),
                                                e.at("last_improved").get<bool>()};
    }
    if (j.contains("reduce_lr_on_plateau")) {
        const Json& r = j["reduce_lr_on_plateau"];
        s.reduce_lr = ReduceLROnPlateau::State{num(r.at("best")), num(r.at("scale")), integer(r, "wait"),
                                               integer(r, "cooldown_left")};
    }
    if (j.contains("loss_scale")) {
        const Json& l = j["loss_scale"];
        s.loss_scale = LossScale::State{num(l.at("scale")), integer(l, "good_steps")};
    }
    return s;
}

// The checkpoint's header; throws when the blob is not a Layerforge checkpoint.
Json header_of(const SafetensorsView& v, const std::string& origin) {
    auto it = v.metadata.find(kMetaKey);
    if (it == v.metadata.end()) throw input_error(origin + ": not a Layerforge checkpoint (no training header)");
    check_json_depth(it->second, origin + " (checkpoint header)");
    Json h = Json::parse(it->second, nullptr, false);
    if (!h.is_object()) throw input_error(origin + ": the checkpoint header is damaged");
    const Json format = h.value("format", Json(0));
    if (!format.is_number()) throw input_error(origin + ": the checkpoint header's format is not a number; it is damaged");
    if (format > kCheckpointFormat)
        throw input_error(origin + ": the checkpoint was written by a newer Layerforge; update Layerforge");
    return h;
}

// Refuses a checkpoint whose layers differ from the model's, naming every difference.
void require_same_layers(const Model& m, const SafetensorsView& v, const std::string& origin) {
    std::vector<std::string> diff = weight_differences(m, v);
    if (diff.empty()) return;
    std::string text;
    for (const std::string& d : diff) text += "\n  " + d;
    throw input_error(origin + ": the checkpoint's layers do not match the model's:" + text +
                      "\nrestore the graph it was trained with, or restore the matching layers only (--partial)");
}

}  // namespace

std::string graph_hash(const Model& m) {
    std::string text;
    for (const WeightRef& w : m.weight_refs()) {
        text += w.name + ":";
        for (auto d : w.shape.dims) text += std::to_string(d) + ",";
        text += ";";
    }
    return crc32_hex(text);
}

std::string encode_checkpoint(const Model& m, Optimizer& opt, const TrainState& s) {
    std::vector<TensorRef> tensors = weight_tensors(m, m.weights().data());
    Json slots = Json::array();
    for (auto& [slot, buffer] : opt.state()) {
        if (buffer->size() != m.weights().size())
            throw runtime_error("optimizer slot '" + slot + "' does not cover the model's weights");
        for (TensorRef& t : weight_tensors(m, buffer->data(), "optimizer/" + slot + "/")) tensors.push_back(t);
        slots.push_back(slot);
    }
    if (!s.best_weights.empty()) {
        if (s.best_weights.size() != m.weights().size()) throw runtime_error("the best weights do not fit the model");
        for (TensorRef& t : weight_tensors(m, s.best_weights.data(), "train/best_weights/")) tensors.push_back(t);
    }
    Json h = {{"format", kCheckpointFormat},
              {"step", s.iterations},
              {"epoch", s.epoch},
              {"graph_hash", graph_hash(m)},
              {"optimizer", {{"name", opt.name()}, {"iterations", opt.iterations()}, {"slots", slots}}},
              {"state", state_json(s)}};
    return encode_safetensors(tensors, {{"format", "layerforge-checkpoint"}, {kMetaKey, h.dump()}});
}

std::vector<std::string> restore_checkpoint_weights(Model& m, const std::string& blob, const std::string& origin,
                                                    bool partial) {
    SafetensorsView v = parse_safetensors(blob, origin);
    header_of(v, origin);
    if (!partial) require_same_layers(m, v, origin);
    return copy_weights(m, v, m.weights().data(), origin, partial);
}

TrainState restore_checkpoint(Model& m, Optimizer& opt, const std::string& blob, const std::string& origin) {
    SafetensorsView v = parse_safetensors(blob, origin);
    Json h = header_of(v, origin);
    require_same_layers(m, v, origin);
    try {
        const Json& o = h.at("optimizer");
        if (o.at("name") != opt.name())
            throw input_error(origin + ": the checkpoint was trained with " + o.at("name").get<std::string>() +
                              ", this run uses " + opt.name() + "; resume with the same optimizer");
        TrainState s = state_from(h.at("state"));
        std::vector<float> weights(m.weights().size());
        copy_weights(m, v, weights.data(), origin);
        for (auto& [slot, buffer] : opt.state()) {
            buffer->assign(m.weights().size(), 0.f);
            copy_weights(m, v, buffer->data(), origin, false, "optimizer/" + slot + "/");
        }
        if (!m.weight_refs().empty() && v.tensors.count("train/best_weights/" + m.weight_refs().front().name)) {
            s.best_weights.resize(m.weights().size());
            copy_weights(m, v, s.best_weights.data(), origin, false, "train/best_weights/");
        }
        m.weights() = std::move(weights);
        opt.set_iterations(integer(o, "iterations"));
        return s;
    } catch (const Json::exception& e) {
        throw input_error(origin + ": the checkpoint header is damaged (" + e.what() + ")");
    }
}

}  // namespace lf
