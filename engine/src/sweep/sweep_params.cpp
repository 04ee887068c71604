// Parsing swept parameters and expanding them into trials (grid and random).
#include <cmath>
#include <random>
#include <set>

#include "layerforge/core/error.h"
#include "layerforge/sweep/sweep.h"

namespace lf {

namespace {

// A value as written: a JSON number or boolean when it reads as one, otherwise text.
nlohmann::json value_of(const std::string& token) {
    nlohmann::json j = nlohmann::json::parse(token, nullptr, false);
    if (!j.is_discarded() && (j.is_number() || j.is_boolean())) return j;
    return token;
}

double range_end(const std::string& name, const std::string& token) {
    const nlohmann::json j = value_of(token);
    if (!j.is_number() || !std::isfinite(j.get<double>()))
        throw input_error("sweep parameter " + name + ": the range end '" + token + "' is not a number");
    return j.get<double>();
}

SweepParam parse_range(SweepParam p, const std::string& kind, const std::string& range) {
    const std::size_t dots = range.find("..");
    if (dots == std::string::npos)
        throw input_error("sweep parameter " + p.name + ": write the range as " + kind + ":LOW..HIGH");
    p.kind = kind == "log" ? SweepParam::Kind::Log : kind == "lin" ? SweepParam::Kind::Linear : SweepParam::Kind::Integer;
    p.low = range_end(p.name, range.substr(0, dots));
    p.high = range_end(p.name, range.substr(dots + 2));
    if (p.low > p.high)
        throw input_error("sweep parameter " + p.name + ": the range " + range + " is empty (LOW is above HIGH)");
    if (p.kind == SweepParam::Kind::Log && p.low <= 0)
        throw input_error("sweep parameter " + p.name + ": a log range must lie above 0, got " + range);
    if (p.kind == SweepParam::Kind::Integer) {
        if (p.low != std::floor(p.low) || p.high != std::floor(p.high))
            throw input_error("sweep parameter " + p.name + ": an int range takes integers, got " + range);
    }
    return p;
}

// Uniform in [0, 1) from 53 random bits: the same draws on every platform (std's distributions differ).
double unit(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

nlohmann::json draw(const SweepParam& p, std::mt19937_64& rng) {
    const double u = unit(rng);
    switch (p.kind) {
    case SweepParam::Kind::List: return p.values[std::min(p.values.size() - 1, std::size_t(u * double(p.values.size())))];
    case SweepParam::Kind::Log: return std::exp(std::log(p.low) + u * (std::log(p.high) - std::log(p.low)));
    case SweepParam::Kind::Linear: return p.low + u * (p.high - p.low);
    case SweepParam::Kind::Integer: return std::int64_t(p.low + std::floor(u * (p.high - p.low + 1)));
    }
    return nullptr;
}

void check_distinct(const std::vector<SweepParam>& params) {
    std::set<std::string> seen;
    for (const SweepParam& p : params)
        if (!seen.insert(p.name).second) throw input_error("sweep parameter " + p.name + " is given twice");
    if (params.empty()) throw input_error("a sweep needs at least one parameter, e.g. learning_rate=1e-3,3e-4");
}

}  // namespace

SweepParam parse_sweep_param(const std::string& text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw input_error("sweep parameter '" + text + "': write NAME=V1,V2,... or NAME=log:LOW..HIGH");
    SweepParam p;
    p.name = text.substr(0, eq);
    const std::string rest = text.substr(eq + 1);
    for (const char* kind : {"log", "lin", "int"})
        if (rest.rfind(std::string(kind) + ":", 0) == 0) return parse_range(p, kind, rest.substr(4));
    for (std::size_t at = 0; at <= rest.size();) {
        const std::size_t comma = std::min(rest.find(',', at), rest.size());
        const std::string token = rest.substr(at, comma - at);
        if (token.empty()) throw input_error("sweep parameter " + p.name + ": an empty value in '" + rest + "'");
        p.values.push_back(value_of(token));
        at = comma + 1;
    }
    return p;
}

std::vector<TrialSettings> grid_trials(const std::vector<SweepParam>& params) {
    check_distinct(params);
    std::vector<TrialSettings> trials{TrialSettings::object()};
    for (const SweepParam& p : params) {
        if (p.kind != SweepParam::Kind::List)
            throw input_error("sweep parameter " + p.name + ": a grid takes lists of values (V1,V2,...); ranges are "
                              "for --random");
        std::vector<TrialSettings> next;
        for (const TrialSettings& t : trials)
            for (const nlohmann::json& v : p.values) {
                next.push_back(t);
                next.back()[p.name] = v;
            }
        trials = std::move(next);
    }
    return trials;
}

std::vector<TrialSettings> random_trials(const std::vector<SweepParam>& params, std::int64_t count, std::uint64_t seed) {
    check_distinct(params);
    if (count < 1) throw input_error("a random sweep needs at least 1 trial (--random N)");
    std::mt19937_64 rng(seed);
    std::vector<TrialSettings> trials(std::size_t(count), TrialSettings::object());
    for (TrialSettings& t : trials)
        for (const SweepParam& p : params) t[p.name] = draw(p, rng);
    return trials;
}

}  // namespace lf
