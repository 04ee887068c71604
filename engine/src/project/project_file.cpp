// Reading and atomically writing *.lfproj files.
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/project/project.h"

namespace lf {

Project load_project(const std::string& path) {
    const std::string text = read_file(path, "project file");
    if (text.empty()) throw input_error(path + ": the project file is empty (0 bytes); it holds no project");
    return parse_project(text, path);
}

void save_project(const Project& p, const std::string& path) {
    write_file_atomic(path, serialize_project(p), "project");
}

}  // namespace lf
