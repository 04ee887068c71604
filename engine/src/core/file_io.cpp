#include "layerforge/core/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "layerforge/core/error.h"

namespace lf {

void write_file_atomic(const std::string& path, std::string_view data, const std::string& what) {
    const std::string tmp = path + ".tmp";
    auto fail = [&](const char* step) {
        const std::string reason = std::strerror(errno);
        ::unlink(tmp.c_str());
        return input_error(path + ": cannot save the " + what + " (" + step + " " + tmp + ": " + reason +
                           "); check that the folder exists and is writable");
    };
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw fail("creating");
    for (std::size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            throw fail("writing");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        ::close(fd);
        throw fail("syncing");
    }
    if (::close(fd) != 0) throw fail("closing");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw fail("renaming");
}

std::string read_file(const std::string& path, const std::string& what) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw input_error(path + ": " + what + " not found; check the path");
    if (std::filesystem::is_directory(path, ec)) throw input_error(path + ": is a folder, not a " + what);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf()) || in.bad())
        throw input_error(path + ": cannot read the " + what + " (" + std::strerror(errno) + "); check its permissions");
    return text.str();
}

bool folder_is_writable(const std::string& folder) {
    return ::access(folder.empty() ? "." : folder.c_str(), W_OK | X_OK) == 0;
}

void require_writable_folder(const std::string& folder, const std::string& purpose) {
    const std::string dir = folder.empty() ? std::string(".") : folder;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return;  // whoever creates files there names it
    if (folder_is_writable(dir)) return;
    throw runtime_error("the folder " + dir + " is read-only (" + std::strerror(errno) + "): " + purpose +
                        "; make it writable, or copy the project to a writable folder");
}

}  // namespace lf
