#pragma once
// Builds a zip archive in memory with libzip (deflated entries) and returns its bytes.
#include <string>
#include <utility>
#include <vector>

namespace lf::exporter {

// Entries as (name, bytes), in that order.
std::string zip_image(const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace lf::exporter
