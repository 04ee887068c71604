#pragma once
// Several files written as one (an export's code and its weights): either all of the new files
// are in place, or the set is recognisably incomplete and the next write of it replaces it.
//
// Each file is written and synced in a staging folder beside the targets; then a journal
// ".NAME.pending" (NAME: the set's first file) lists the set while the files are renamed into
// place, and goes once they all are. A kill while staging leaves the targets as they were; a kill
// while renaming leaves the journal. Staging folders of processes that are gone are removed.
#include <string>
#include <utility>
#include <vector>

namespace lf {

using FileSet = std::vector<std::pair<std::string, std::string>>;  // file name in the folder, bytes

// Writes `files` into `folder` (created when missing), replacing files of the same names.
// Throws lf::Error naming the file: Runtime "no space left on the device ..." on a full disk,
// Input otherwise (a folder that cannot be written).
void write_file_set(const std::string& folder, const FileSet& files, const std::string& what);

// Removes what killed writers of the set left in `folder`: staging folders and journal temporaries
// of processes that are gone. write_file_set() does it first; a caller that may refuse to write
// (files exist) calls it too, so that a refusal still cleans up.
void remove_stale_file_set_temporaries(const std::string& folder, const std::string& first_name);

// The names of a set whose write was cut short (its journal is there), so that they may be
// replaced without asking; empty when the set is complete or absent.
std::vector<std::string> incomplete_file_set(const std::string& folder, const std::string& first_name);

}  // namespace lf
