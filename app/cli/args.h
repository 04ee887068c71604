#pragma once
// A small command-line parser: positional arguments plus --name [value] options declared up front.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lf::cli {

struct OptionSpec {
    std::string name;  // without "--"
    std::string value; // placeholder shown in help ("N"); empty for a flag; "[X]": the value may be left out
    std::string help;
};

struct CommandSpec {
    std::string name, usage, summary;
    std::vector<OptionSpec> options;
    std::string help_text() const;
};

// `text` as a decimal integer; throws lf::Error (Input) "<what> expects an integer, got 'x'" or
// "<what>: 99999999999999999999 is too large (at most 9223372036854775807)".
std::int64_t parse_integer(const std::string& text, const std::string& what);

class Args {
public:
    // Throws lf::Error (Input) for an unknown option or a missing value.
    Args(const CommandSpec& spec, const std::vector<std::string>& argv);

    bool help() const { return flags_.count("help") > 0; }
    bool flag(const std::string& name) const { return flags_.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    std::optional<std::int64_t> integer(const std::string& name) const;  // checks the syntax
    std::optional<double> number(const std::string& name) const;
    const std::vector<std::string>& positional() const { return positional_; }
    // The n-th positional argument; throws a usage error naming `what` when absent.
    const std::string& require(std::size_t n, const std::string& what) const;
    // The first positional argument, one of `known`; else a usage error that lists them (and,
    // for a project file given first, says the subcommand comes before it).
    const std::string& subcommand(const std::vector<std::string>& known) const;

private:
    const CommandSpec& spec_;
    std::map<std::string, std::string> values_;
    std::map<std::string, bool> flags_;
    std::vector<std::string> positional_;
};

}  // namespace lf::cli
