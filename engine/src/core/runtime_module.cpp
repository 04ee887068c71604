#include "layerforge/core/runtime_module.h"

#include <cstdlib>
#include <filesystem>

namespace lf {

std::vector<std::string> runtime_module_candidates(const char* env_var, const std::string& file) {
    if (const char* p = std::getenv(env_var); p && *p) return {p};
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::string dir = exe.parent_path().string();
    return {dir + "/" + file, dir + "/../lib/layerforge/" + file};
}

std::string short_dlerror(const std::string& text, const std::string& module_path) {
    std::string s = text;
    // dlerror repeats the path it was given ("/usr/lib/.../liblayerforge_cuda.so: libcudnn.so.9: ...").
    if (s.rfind(module_path + ": ", 0) == 0) s = s.substr(module_path.size() + 2);
    constexpr std::size_t kMax = 160;  // one line in the Train page's note
    if (s.size() > kMax) s = s.substr(0, kMax - 3) + "...";
    return s;
}

}  // namespace lf
