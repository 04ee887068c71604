#pragma once
// Reads and validates the Params of one configurable object (a loss, an optimizer,
// a schedule or a callback) so every error names the owner, the parameter and what is valid.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "layerforge/core/params.h"

namespace lf::train_detail {

// Accepted ranges for real parameters; each spelled out in the error message.
enum class Range { Any, Positive, NonNegative, Open01, ClosedOpen01, OpenClosed01, Closed01 };

class ParamReader {
public:
    // Throws lf::input_error when params hold a key that is not in known.
    ParamReader(std::string owner, const Params& params, std::initializer_list<const char*> known);

    // Integers are accepted where a real is expected (Keras takes learning_rate=1).
    double real(const std::string& key, double fallback, Range range = Range::Any) const;
    // Whole-valued reals are accepted where an integer is expected; min is inclusive.
    std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min) const;
    bool flag(const std::string& key, bool fallback) const;
    std::string text(const std::string& key, const std::string& fallback,
                     std::initializer_list<const char*> allowed = {}) const;

    // Throws lf::input_error when a parameter without a default is missing.
    void require(const std::string& key) const;

    const std::string& owner() const { return owner_; }

private:
    const ParamValue* find(const std::string& key) const;
    [[noreturn]] void fail(const std::string& key, const std::string& what) const;

    std::string owner_;
    const Params& params_;
};

}  // namespace lf::train_detail
