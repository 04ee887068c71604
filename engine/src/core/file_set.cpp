#include "layerforge/core/file_set.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"

namespace lf {

namespace fs = std::filesystem;

namespace {

std::string journal_path(const std::string& folder, const std::string& first_name) {
    return (fs::path(folder) / ("." + first_name + ".pending")).string();
}

// A rename is durable once the folder's entry is on disk.
void sync_folder(const std::string& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void remove_stale_file_set_temporaries(const std::string& folder, const std::string& first_name) {
    remove_stale_temporaries(folder, "." + first_name + ".", ".staging");
    remove_stale_temporaries(folder, "." + first_name + ".pending.", ".tmp");
}

std::vector<std::string> incomplete_file_set(const std::string& folder, const std::string& first_name) {
    std::vector<std::string> names;
    const std::string journal = journal_path(folder, first_name);
    std::error_code ec;
    if (!fs::exists(journal, ec)) return names;
    std::string text;
    try {
        text = read_file(journal, "export journal");
    } catch (const Error&) {
        return {first_name};  // an empty or unreadable journal still marks the set incomplete
    }
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (end > at) names.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return names;
}

void write_file_set(const std::string& folder, const FileSet& files, const std::string& what) {
    if (files.empty()) return;
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw input_error(folder + ": cannot create the folder (" + ec.message() + ")");
    const std::string first = files.front().first;
    remove_stale_file_set_temporaries(folder, first);
    const std::string staging = unique_temporary_path((fs::path(folder) / ("." + first)).string()) + ".staging";
    if (!fs::create_directory(staging, ec))
        throw input_error(folder + ": cannot create the staging folder " + staging + " (" + ec.message() +
                          "); check that the folder is writable");
    try {
        std::string journal;
        for (const auto& [name, bytes] : files) {
            write_file_atomic((fs::path(staging) / name).string(), bytes, what);
            journal += name + "\n";
        }
        write_file_atomic(journal_path(folder, first), journal, what + " journal");
        for (const auto& [name, bytes] : files) {
            const std::string target = (fs::path(folder) / name).string();
            if (std::rename((fs::path(staging) / name).c_str(), target.c_str()) != 0)
                throw input_error(target + ": cannot move the new " + what + " into place (" + std::strerror(errno) + ")");
        }
        sync_folder(folder);
        fs::remove_all(staging, ec);  // before the journal: a kill after it leaves nothing behind
        fs::remove(journal_path(folder, first), ec);
        sync_folder(folder);
    } catch (...) {
        fs::remove_all(staging, ec);
        throw;
    }
}

}  // namespace lf
