// A trial's settings written into the project: training fields, optimizer parameters and layer
// parameters, each checked as the project file's own loader would check it.
#include <algorithm>

#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"
#include "layerforge/sweep/sweep.h"
#include "layerforge/train/optimizer.h"

namespace lf {

namespace {

std::string shown(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

Error bad_value(const std::string& name, const nlohmann::json& v, const std::string& why) {
    return input_error("sweep parameter " + name + " = " + shown(v) + ": " + why);
}

std::int64_t integer(const std::string& name, const nlohmann::json& v, std::int64_t min) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < min)
        throw bad_value(name, v, "must be an integer of at least " + std::to_string(min));
    return v.get<std::int64_t>();
}

double number(const std::string& name, const nlohmann::json& v) {
    if (!v.is_number()) throw bad_value(name, v, "must be a number");
    return v.get<double>();
}

// The layer parameter's value in the kind its spec declares.
ParamValue layer_value(const std::string& name, const nlohmann::json& v, const ParamSpec& spec) {
    switch (spec.kind) {
    case ParamKind::Bool:
        if (!v.is_boolean()) throw bad_value(name, v, "must be true or false");
        return v.get<bool>();
    case ParamKind::Int:
    case ParamKind::IntList:
        if (!v.is_number_integer()) throw bad_value(name, v, "must be an integer");
        return v.get<std::int64_t>();
    case ParamKind::Float: return number(name, v);
    case ParamKind::String:
    case ParamKind::Choice:
        if (!v.is_string()) throw bad_value(name, v, "must be text");
        return v.get<std::string>();
    }
    return {};
}

void set_layer_param(Project& p, const std::string& name, const std::string& layer, const std::string& param,
                     const nlohmann::json& v) {
    auto node = std::find_if(p.graph.nodes.begin(), p.graph.nodes.end(),
                             [&](const Node& n) { return n.name == layer || n.id == layer; });
    if (node == p.graph.nodes.end())
        throw input_error("sweep parameter " + name + ": the model has no layer named '" + layer + "'");
    const LayerSpec* spec = LayerRegistry::instance().find(node->type);
    const auto ps = spec ? std::find_if(spec->params.begin(), spec->params.end(),
                                        [&](const ParamSpec& s) { return s.name == param; })
                         : std::vector<ParamSpec>::const_iterator{};
    if (!spec || ps == spec->params.end())
        throw input_error("sweep parameter " + name + ": a " + node->type + " layer has no parameter '" + param + "'");
    Params given = node->params;
    given[param] = layer_value(name, v, *ps);
    std::vector<ParamProblem> problems;
    resolve_params(*spec, given, problems);
    for (const ParamProblem& pr : problems)
        if (pr.field == param) throw bad_value(name, v, pr.message);
    node->params = std::move(given);
}

void set_setting(Project& p, const std::string& name, const nlohmann::json& v) {
    TrainingConfig& t = p.training;
    if (name == "learning_rate") {
        if (!(number(name, v) > 0)) throw bad_value(name, v, "must be positive");
        t.optimizer.params["learning_rate"] = v.get<double>();
    } else if (name == "batch_size") {
        t.batch_size = integer(name, v, 1);
    } else if (name == "epochs") {
        t.epochs = integer(name, v, 1);
    } else if (name == "seed") {
        t.seed = integer(name, v, 0);
    } else if (name == "optimizer") {
        const std::vector<std::string> types = optimizer_types();
        if (!v.is_string() || std::find(types.begin(), types.end(), v.get<std::string>()) == types.end())
            throw bad_value(name, v, "is not an optimizer (SGD, Adam, AdamW, RMSprop)");
        t.optimizer.type = v.get<std::string>();
    } else if (name == "precision") {
        const std::optional<Precision> policy = v.is_string() ? parse_precision(v.get<std::string>()) : std::nullopt;
        if (!policy) throw bad_value(name, v, "must be " + precision_choices());
        t.precision = *policy;
    } else if (name.rfind("optimizer.", 0) == 0) {
        t.optimizer.params[name.substr(10)] = number(name, v);
    } else if (const std::size_t dot = name.find('.'); dot != std::string::npos) {
        set_layer_param(p, name, name.substr(0, dot), name.substr(dot + 1), v);
    } else {
        throw input_error("unknown sweep parameter '" + name +
                          "': sweep learning_rate, batch_size, epochs, seed, optimizer, precision, "
                          "optimizer.NAME (momentum, beta_1, ...) or LAYER.PARAM (e.g. dense1.units)");
    }
}

}  // namespace

Project with_trial_settings(Project p, const TrialSettings& t) {
    for (const auto& [name, v] : t.items()) set_setting(p, name, v);
    return p;
}

void check_trials(const Project& p, const std::vector<TrialSettings>& trials) {
    for (const TrialSettings& t : trials) {
        const Project trial = with_trial_settings(p, t);
        try {  // the optimizer checks its own parameters (an SGD has no beta_1)
            make_optimizer(trial.training.optimizer.type, trial.training.optimizer.params);
        } catch (const Error& e) {
            throw input_error("sweep trial " + t.dump() + ": " + e.what());
        }
    }
}

}  // namespace lf
