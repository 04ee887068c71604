#pragma once
// An exclusive lock on a file (flock), held while the object lives and dropped by the kernel when
// the process ends, kill -9 included, so a crash never leaves a stale lock. The holder writes its
// PID into the file, for the message the next one gets.
#include <string>

namespace lf {

class FileLock {
public:
    // Throws lf::Error (Runtime) "<held> in process PID (lock PATH); wait for it to finish or stop
    // it" when another holder has it (another process, or another FileLock here); `held` says
    // what the holder does ("another training of x.lfproj is running").
    FileLock(const std::string& path, const std::string& held);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int fd_ = -1;
};

}  // namespace lf
