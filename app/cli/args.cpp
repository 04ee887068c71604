#include "args.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>

#include "layerforge/core/error.h"

namespace lf::cli {

std::string CommandSpec::help_text() const {
    std::string s = "usage: layerforge-cli " + usage + "\n\n" + summary + "\n";
    if (options.empty()) return s;
    s += "\noptions:\n";
    for (const OptionSpec& o : options) {
        std::string left = "  --" + o.name + (o.value.empty() ? "" : " " + o.value);
        left.resize(std::max<std::size_t>(left.size() + 2, 28), ' ');
        s += left + o.help + "\n";
    }
    return s + "  --help                    show this help\n";
}

Args::Args(const CommandSpec& spec, const std::vector<std::string>& argv) : spec_(spec) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--help" || a == "-h") {
            flags_["help"] = true;
            continue;
        }
        if (a.rfind("--", 0) != 0 || a == "--") {
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2), inline_value;
        bool has_inline = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_inline = true;
        }
        const OptionSpec* o = nullptr;
        for (const OptionSpec& c : spec.options)
            if (c.name == name) o = &c;
        if (!o) throw input_error("unknown option --" + name + " for '" + spec.name + "'; see layerforge-cli " + spec.name + " --help");
        if (o->value.empty()) {
            if (has_inline) throw input_error("option --" + name + " takes no value");
            flags_[name] = true;
        } else if (has_inline) {
            values_[name] = inline_value;
        } else if (o->value.front() == '[') {  // optional: take the next word unless it is an option or a project
            const bool next = i + 1 < argv.size() && argv[i + 1].rfind("--", 0) != 0 &&
                              !argv[i + 1].ends_with(".lfproj");
            values_[name] = next ? argv[++i] : std::string();
        } else {
            if (i + 1 >= argv.size()) throw input_error("option --" + name + " needs a value (" + o->value + ")");
            values_[name] = argv[++i];
        }
    }
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::int64_t parse_integer(const std::string& text, const std::string& what) {
    std::int64_t n = 0;
    const char* first = text.data() + (text.size() > 1 && text[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), n);
    if (ec == std::errc::result_out_of_range)
        throw input_error(what + ": " + text + " is too large (at most " +
                          std::to_string(std::numeric_limits<std::int64_t>::max()) + ")");
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw input_error(what + " expects an integer, got '" + text + "'");
    return n;
}

std::optional<std::int64_t> Args::integer(const std::string& name) const {
    auto v = value(name);
    if (!v) return std::nullopt;
    return parse_integer(*v, "option --" + name);
}

std::optional<double> Args::number(const std::string& name) const {
    auto v = value(name);
    if (!v) return std::nullopt;
    char* end = nullptr;
    double d = std::strtod(v->c_str(), &end);
    if (v->empty() || *end) throw input_error("option --" + name + " expects a number, got '" + *v + "'");
    return d;
}

const std::string& Args::subcommand(const std::vector<std::string>& known) const {
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    const std::string& sub = require(0, "a subcommand (" + list + ")");
    if (std::find(known.begin(), known.end(), sub) != known.end()) return sub;
    const bool project = sub.size() > 7 && sub.ends_with(".lfproj");
    throw input_error("unknown subcommand '" + spec_.name + " " + sub + "' (" + list + ")" +
                      (project ? "; the subcommand comes before PROJECT" : "") + "\nusage: layerforge-cli " + spec_.usage);
}

const std::string& Args::require(std::size_t n, const std::string& what) const {
    if (n >= positional_.size())
        throw input_error("missing " + what + "\nusage: layerforge-cli " + spec_.usage);
    return positional_[n];
}

}  // namespace lf::cli
