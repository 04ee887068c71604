// Reading and atomically writing *.lfproj files.
#include "layerforge/core/file_io.h"
#include "layerforge/project/project.h"

namespace lf {

Project load_project(const std::string& path) { return parse_project(read_file(path, "project file"), path); }

void save_project(const Project& p, const std::string& path) {
    write_file_atomic(path, serialize_project(p), "project");
}

}  // namespace lf
