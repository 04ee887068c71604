#pragma once
// Whole-file reads and crash-safe writes (temp file, fsync, rename) with messages that name the file.
//
// Every file the engine reads opens through one policy (open_for_reading): a regular file after
// links are resolved, not empty, and no longer than the format's cap, checked before a byte is
// read. A named pipe would block the reader forever and /dev/zero never ends, so anything else is
// lf::Error (Input) naming the file and what it is.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

// Caps per kind of file, far above any real one.
inline constexpr std::uint64_t kMaxProjectFileBytes = 64ull << 20;  // JSON: projects, Keras model configs
inline constexpr std::uint64_t kMaxImageFileBytes = 256ull << 20;   // one image
inline constexpr std::uint64_t kMaxWeightsFileBytes = 64ull << 30;  // safetensors

// An open regular file, closed when it goes.
class ReadableFile {
public:
    // Throws lf::Error (Input) "<path>: <what> not found", "... is a named pipe (FIFO), not a <what>",
    // "... is empty (0 bytes)", "... is 300.0 MB; a <what> may have at most 256.0 MB", ...
    ReadableFile(const std::string& path, const std::string& what, std::uint64_t max_bytes);
    ~ReadableFile();
    ReadableFile(const ReadableFile&) = delete;
    ReadableFile& operator=(const ReadableFile&) = delete;

    std::uint64_t size() const { return size_; }
    // The whole content (a file that shrank meanwhile: what is there; one that grew: up to size()).
    std::string read_all() const;
    std::vector<std::uint8_t> read_all_bytes() const;
    // Up to `n` bytes from the start (magic numbers); returns how many were read.
    std::size_t read_head(std::uint8_t* data, std::size_t n) const;

private:
    std::size_t read_into(char* data, std::size_t n) const;
    std::string path_, what_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// Throws like ReadableFile when `path` exists and is not a regular file (links resolved); for
// files that may be missing or empty, such as a run store about to be created.
void check_regular_if_present(const std::string& path, const std::string& what);
// ReadableFile(path, what, max_bytes).read_all().
std::string read_file(const std::string& path, const std::string& what, std::uint64_t max_bytes = kMaxProjectFileBytes);
// The policy's checks alone, for readers that open the file themselves (zlib, SQLite); returns the size.
std::uint64_t check_readable_file(const std::string& path, const std::string& what, std::uint64_t max_bytes);

// Throws lf::Error (Input) "<path>: cannot save the <what> (...); check that the folder exists and
// is writable", or (Runtime) "<path>: cannot save the <what>: no space left on the device: N MB free,
// M MB needed" when the disk is full. The temporary file is unique to the process and call.
void write_file_atomic(const std::string& path, std::string_view data, const std::string& what);
// Whether files can be created in `folder` ("" is the current folder). Also right for root:
// a read-only mount answers EROFS whatever the permissions say.
bool folder_is_writable(const std::string& folder);
// Throws lf::Error (Runtime) "the folder DIR is read-only (...): <purpose>; ..." when files cannot be
// created in `folder` (a read-only mount, missing permissions); a missing folder passes.
void require_writable_folder(const std::string& folder, const std::string& purpose);

// A path beside `path` for a temporary file no other process or call uses: "<path>.<pid>-<n>.tmp".
std::string unique_temporary_path(const std::string& path);
// Removes the files and folders in `folder` named "<prefix><pid><anything><suffix>" whose process
// is gone: temporaries a kill left behind (unique_temporary_path, file sets' staging folders).
void remove_stale_temporaries(const std::string& folder, const std::string& prefix, const std::string& suffix);
// "no space left on the device of <path>: N MB free, M MB needed" (the free space read now).
std::string disk_full_message(const std::string& path, std::uint64_t needed_bytes);

}  // namespace lf
