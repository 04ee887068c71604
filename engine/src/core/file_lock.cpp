#include "layerforge/core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

FileLock::FileLock(const std::string& path, const std::string& held) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd_ < 0)
        throw runtime_error(path + ": cannot create the lock file (" + std::strerror(errno) +
                            "); check that the folder is writable");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        char pid[32] = {};
        const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
        ::close(fd_);
        fd_ = -1;
        if (err != EWOULDBLOCK)
            throw runtime_error(path + ": cannot take the lock (" + std::strerror(err) + ")");
        const std::string holder = n > 0 ? std::string(pid, std::size_t(n)) : std::string("?");
        throw runtime_error(held + " in process " + holder + " (lock " + path + "); wait for it to finish or stop it");
    }
    const std::string me = std::to_string(::getpid());
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) != ssize_t(me.size())) {
        // The lock holds without the PID; the next holder's message just cannot name us.
    }
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // drops the lock
}

}  // namespace lf
