#include "layerforge/core/file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "layerforge/core/error.h"

namespace lf {

namespace {

std::string mb(std::uint64_t bytes) {
    if (bytes < 10000) return std::to_string(bytes) + " bytes";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / 1e6);
    return buf;
}

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// "a project file", "an image file".
std::string with_article(const std::string& what) {
    return (std::string("aeiou").find(what.empty() ? 'x' : what[0]) != std::string::npos ? "an " : "a ") + what;
}

Error open_failure(const std::string& path, const std::string& what, int err) {
    if (err == ENOENT) {
        struct stat link {};
        if (::lstat(path.c_str(), &link) == 0) return input_error(path + ": is a link to a missing file, not a " + what);
        return input_error(path + ": " + what + " not found; check the path");
    }
    return input_error(path + ": cannot read the " + what + " (" + std::strerror(err) + "); check its permissions");
}

// Regular, non-empty and within the cap; `st` from stat() or fstat().
void check_stat(const std::string& path, const std::string& what, std::uint64_t max_bytes, const struct stat& st) {
    if (!S_ISREG(st.st_mode)) throw input_error(path + ": is " + kind_of(st.st_mode) + ", not " + with_article(what));
    const auto size = std::uint64_t(st.st_size);
    if (size == 0) throw input_error(path + ": the " + what + " is empty (0 bytes)");
    if (size > max_bytes)
        throw input_error(path + ": is " + mb(size) + "; " + with_article(what) + " may have at most " + mb(max_bytes));
}

std::string folder_of(const std::string& path) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

bool disk_full(int err) { return err == ENOSPC || err == EDQUOT; }

}  // namespace

void remove_stale_temporaries(const std::string& folder, const std::string& prefix, const std::string& suffix) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder.empty() ? "." : folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && pid != long(::getpid()) && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            std::filesystem::remove_all(it->path(), ec);
    }
}

ReadableFile::ReadableFile(const std::string& path, const std::string& what, std::uint64_t max_bytes)
    : path_(path), what_(what) {
    struct stat st {};
    // stat() first: opening a FIFO or a device can block or act; neither is read.
    if (::stat(path.c_str(), &st) != 0) throw open_failure(path, what, errno);
    check_stat(path, what, max_bytes, st);
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw open_failure(path, what, errno);
    try {
        if (::fstat(fd_, &st) != 0) throw open_failure(path, what, errno);
        check_stat(path, what, max_bytes, st);  // the file swapped in between
    } catch (...) {
        ::close(fd_);
        throw;
    }
    size_ = std::uint64_t(st.st_size);
}

ReadableFile::~ReadableFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::size_t ReadableFile::read_into(char* data, std::size_t n) const {
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(fd_, data + done, n - done, off_t(done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw input_error(path_ + ": cannot read the " + what_ + " (" + std::strerror(errno) + ")");
        if (got == 0) break;  // the file shrank: keep what is there
        done += std::size_t(got);
    }
    return done;
}

std::string ReadableFile::read_all() const {
    std::string data(std::size_t(size_), '\0');
    data.resize(read_into(data.data(), data.size()));
    return data;
}

std::vector<std::uint8_t> ReadableFile::read_all_bytes() const {
    std::vector<std::uint8_t> data(static_cast<std::size_t>(size_));
    data.resize(read_into(reinterpret_cast<char*>(data.data()), data.size()));
    return data;
}

std::size_t ReadableFile::read_head(std::uint8_t* data, std::size_t n) const {
    return read_into(reinterpret_cast<char*>(data), std::min<std::uint64_t>(n, size_));
}

std::string read_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
    return ReadableFile(path, what, max_bytes).read_all();
}

void check_regular_if_present(const std::string& path, const std::string& what) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw input_error(path + ": is " + kind_of(st.st_mode) + ", not " + with_article(what));
}

std::uint64_t check_readable_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
    return ReadableFile(path, what, max_bytes).size();
}

std::string unique_temporary_path(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    return path + "." + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".tmp";
}

std::string disk_full_message(const std::string& path, std::uint64_t needed_bytes) {
    struct statvfs fs {};
    const std::string dir = folder_of(path);
    std::string free = "unknown";
    if (::statvfs(dir.c_str(), &fs) == 0) free = mb(std::uint64_t(fs.f_bavail) * fs.f_frsize);
    return "no space left on the device of " + dir + ": " + free + " free, " + mb(needed_bytes) + " needed";
}

void write_file_atomic(const std::string& path, std::string_view data, const std::string& what) {
    remove_stale_temporaries(folder_of(path), std::filesystem::path(path).filename().string() + ".", ".tmp");
    const std::string tmp = unique_temporary_path(path);
    auto fail = [&](const char* step) {
        const int err = errno;
        ::unlink(tmp.c_str());
        if (disk_full(err))
            return runtime_error(path + ": cannot save the " + what + ": " + disk_full_message(path, data.size()));
        return input_error(path + ": cannot save the " + what + " (" + step + " " + tmp + ": " + std::strerror(err) +
                           "); check that the folder exists and is writable");
    };
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw fail("creating");
    for (std::size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            const int err = errno;
            ::close(fd);
            errno = err;
            throw fail("writing");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        errno = err;
        throw fail("syncing");
    }
    if (::close(fd) != 0) throw fail("closing");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw fail("renaming");
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
