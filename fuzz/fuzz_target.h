#pragma once
// Shared by the fuzz targets: the libFuzzer entry point's signature, and the one rule every target
// checks: hostile bytes may only ever produce lf::Error. Any other exception escapes and is reported
// as a crash by libFuzzer (or fails the regression runner).
#include <cstddef>
#include <cstdint>
#include <string>

#include "layerforge/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace lf::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Writes the bytes to a file of this process (one per tag, reused across inputs) and returns its path.
std::string write_temp(const std::string& tag, const std::uint8_t* data, std::size_t size);

}  // namespace lf::fuzz
