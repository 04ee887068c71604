#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "fuzz_target.h"

namespace lf::fuzz {

std::string write_temp(const std::string& tag, const std::uint8_t* data, std::size_t size) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("lf-fuzz-" + std::to_string(::getpid()) + "-" + tag);
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
    return path.string();
}

}  // namespace lf::fuzz
