#pragma once
// Caps on what a file may declare, checked before the engine allocates or recurses for it:
// files come from strangers (downloaded projects, copied checkpoints), and none may exhaust
// memory, the stack or the CPU. Each check throws lf::Error (Input) naming the file and field.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lf {

inline constexpr std::size_t kMaxJsonDepth = 128;             // nested arrays/objects in any JSON we read
inline constexpr std::size_t kMaxGraphNodes = 10'000;         // layers in one model
inline constexpr std::size_t kMaxGraphEdges = 40'000;         // connections in one model
inline constexpr std::int64_t kMaxTensorElements = 1LL << 32; // one tensor declared in a weights file
inline constexpr std::size_t kMaxNameBytes = 256;             // a layer's, group's, run's or project's name or id
inline constexpr std::size_t kMaxTextBytes = 4096;            // any other string in a file (paths, notes, choices)

// Why `text` is not an acceptable string of at most `max_bytes` bytes ("is 300 bytes long; at most
// 256 are allowed", "contains a control character (code 0) at byte 1"); empty when it is. Tabs
// and line breaks are allowed in texts longer than a name.
std::string text_problem(std::string_view text, std::size_t max_bytes);

// Rejects JSON text nested deeper than `max_depth` (brackets outside strings are counted; the
// text need not be valid JSON: the parser reports syntax afterwards).
void check_json_depth(std::string_view text, const std::string& origin, std::size_t max_depth = kMaxJsonDepth);

}  // namespace lf
