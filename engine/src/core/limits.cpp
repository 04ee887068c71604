#include "layerforge/core/limits.h"

#include "layerforge/core/error.h"

namespace lf {

std::string text_problem(std::string_view text, std::size_t max_bytes) {
    if (text.size() > max_bytes)
        return "is " + std::to_string(text.size()) + " bytes long; at most " + std::to_string(max_bytes) + " are allowed";
    const bool multiline = max_bytes > kMaxNameBytes;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 || c == 0x7f) && !(multiline && (c == '\t' || c == '\n' || c == '\r')))
            return "contains a control character (code " + std::to_string(int(c)) + ") at byte " + std::to_string(i);
    }
    return {};
}

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
