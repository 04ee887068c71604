#include "layerforge/core/limits.h"

#include "layerforge/core/error.h"

namespace lf {

void check_json_depth(std::string_view text, const std::string& origin, std::size_t max_depth) {
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                throw input_error(origin + ": the JSON nests deeper than " + std::to_string(max_depth) +
                                  " levels; the file is damaged or hostile");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

}  // namespace lf
