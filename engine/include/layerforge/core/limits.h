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

// Rejects JSON text nested deeper than `max_depth` (brackets outside strings are counted; the
// text need not be valid JSON: the parser reports syntax afterwards).
void check_json_depth(std::string_view text, const std::string& origin, std::size_t max_depth = kMaxJsonDepth);

}  // namespace lf
