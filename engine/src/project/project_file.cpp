// Reading and atomically writing *.lfproj files.
#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/project/project.h"

namespace lf {

// An empty file is not a read failure: said before read_file, whose stream read of 0 bytes
// reports a stale errno ("No such file or directory").
Project load_project(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec)
        throw input_error(path + ": the project file is empty (0 bytes)");
    return parse_project(read_file(path, "project file"), path);
}

void save_project(const Project& p, const std::string& path) {
    write_file_atomic(path, serialize_project(p), "project");
}

}  // namespace lf
