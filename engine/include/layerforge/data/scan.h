#pragma once
// Image-folder layouts as tf.keras' image_dataset_from_directory and DIGITS accept them:
// root/CLASS/... , or root/train/CLASS/... with valid/ (validation/, val/) and test/ beside it.
// Files in nested folders inside a class belong to that class. Classes are sorted by name
// (byte order of the UTF-8 names), which fixes the label ids.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lf {

struct LabeledFile {
    std::string path;
    std::int32_t label = 0;
};

struct FileProblem {
    std::string path, reason;
};

struct FolderScan {
    std::string root;
    bool split_layout = false;                  // train/ (+ valid/, test/) below the root
    std::vector<std::string> class_names;       // sorted; label i is class_names[i]
    std::vector<LabeledFile> train, validation, test;  // each sorted by (label, path)
    bool has_validation = false, has_test = false;
    std::vector<FileProblem> problems;          // image-named files that cannot be images, and folder errors
    std::int64_t hidden = 0;                    // hidden files and folders skipped (each folder counts once)
    std::int64_t non_images = 0;                // files without an image extension, skipped
    std::int64_t outside_classes = 0;           // image files not inside a class folder, skipped
};

// Walks the folder; checks each image file's size and magic bytes (not a full decode). Throws
// lf::Error (Input) when root is not a folder or holds no class folders.
FolderScan scan_image_folder(const std::string& root);

// Per-class counts over a file list.
std::vector<std::int64_t> class_counts(const std::vector<LabeledFile>& files, std::size_t classes);

struct FolderReport {
    FolderScan scan;
    std::int64_t usable = 0;                       // images that decode
    std::vector<std::int64_t> train_counts, validation_counts, test_counts;  // usable, per class
    std::map<std::string, std::int64_t> sizes;     // "WxH" -> images
    std::map<int, std::int64_t> channels;          // 1 gray, 3 RGB, 4 RGBA -> images
    std::map<std::string, std::int64_t> formats;   // "PNG" -> images
    std::vector<std::vector<std::string>> duplicates;  // groups of files with identical bytes
    std::vector<FileProblem> problems;             // the scan's plus every file that failed to decode
};

// Scans, then decodes every image (on `threads` workers, 0: hardware) for the statistics.
FolderReport inspect_image_folder(const std::string& root, int threads = 0);

}  // namespace lf
