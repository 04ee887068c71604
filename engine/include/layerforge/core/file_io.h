#pragma once
// Whole-file reads and crash-safe writes (temp file, fsync, rename) with messages that name the file.
#include <string>
#include <string_view>

namespace lf {

// Throws lf::Error (Input) "<path>: cannot save the <what> (...); check that the folder exists and is writable".
void write_file_atomic(const std::string& path, std::string_view data, const std::string& what);
// Throws lf::Error (Input) naming the path when it is missing, a folder or unreadable.
std::string read_file(const std::string& path, const std::string& what);
// Whether files can be created in `folder` ("" is the current folder). Also right for root:
// a read-only mount answers EROFS whatever the permissions say.
bool folder_is_writable(const std::string& folder);
// Throws lf::Error (Runtime) "the folder DIR is read-only (...): <purpose>; ..." when files cannot be
// created in `folder` (a read-only mount, missing permissions); a missing folder passes.
void require_writable_folder(const std::string& folder, const std::string& purpose);

}  // namespace lf
