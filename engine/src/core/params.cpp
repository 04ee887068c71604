#include "layerforge/core/params.h"

#include <sstream>

namespace lf {

std::string to_string(const ParamValue& v) {
    struct Visitor {
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            std::ostringstream os;
            os << d;
            return os.str();
        }
        std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
        std::string operator()(const IntList& l) const {
            std::string s = "[";
            for (std::size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + std::to_string(l[i]);
            return s + "]";
        }
    };
    return std::visit(Visitor{}, v);
}

}  // namespace lf
