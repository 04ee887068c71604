// Walks an image folder into labelled file lists, classifying everything it skips.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/data/image.h"
#include "layerforge/data/scan.h"

namespace fs = std::filesystem;

namespace lf {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

bool hidden(const fs::path& p) {
    const std::string n = p.filename().string();
    return !n.empty() && n[0] == '.';
}

// Size and magic bytes: a zero-byte file or one whose content is no image is a problem now;
// damage further in shows when it is decoded.
std::string quick_check(const fs::path& p) {
    std::uint8_t head[16] = {};
    std::size_t n = 0;
    try {
        n = ReadableFile(p.string(), "image file", kMaxImageFileBytes).read_head(head, sizeof head);
    } catch (const Error& e) {  // "<path>: is a named pipe (FIFO), not an image file": the reason
        const std::string why = e.what(), prefix = p.string() + ": ";
        return why.compare(0, prefix.size(), prefix) == 0 ? why.substr(prefix.size()) : why;
    }
    if (sniff_format(head, n) == ImageFormat::Unknown)
        return "not an image: the content is not PNG, JPEG, BMP, GIF or PPM despite the extension";
    return {};
}

class Walker {
public:
    explicit Walker(FolderScan& s) : s_(s) {}

    // Every image file below dir (recursively), sorted by path.
    std::vector<std::string> images_below(const fs::path& dir) {
        std::vector<std::string> out;
        std::error_code ec;
        fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) s_.problems.push_back({dir.string(), "cannot list the folder (" + ec.message() + ")"});
        for (; !ec && it != end; it.increment(ec)) {
            const fs::path p = it->path();
            if (hidden(p)) {
                ++s_.hidden;
                if (it->is_directory(ec)) it.disable_recursion_pending();
                continue;
            }
            if (it->is_directory(ec)) continue;
            if (format_from_extension(p.string()) == ImageFormat::Unknown) {
                ++s_.non_images;
                continue;
            }
            if (std::string why = quick_check(p); !why.empty()) {
                s_.problems.push_back({p.string(), why});
                continue;
            }
            out.push_back(p.string());
        }
        if (ec) s_.problems.push_back({dir.string(), "folder listing stopped (" + ec.message() + ")"});
        std::sort(out.begin(), out.end());
        return out;
    }

    // Class folders directly below dir (hidden ones skipped); loose files are counted if `count`.
    std::vector<fs::path> class_dirs(const fs::path& dir, bool count) {
        std::vector<fs::path> out;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path p = it->path();
            if (hidden(p)) {
                s_.hidden += count;
            } else if (it->is_directory(ec)) {
                out.push_back(p);
            } else if (format_from_extension(p.string()) == ImageFormat::Unknown) {
                s_.non_images += count;
            } else {
                s_.outside_classes += count;
            }
        }
        if (ec) throw input_error(dir.string() + ": cannot list the folder (" + ec.message() + ")");
        std::sort(out.begin(), out.end());
        return out;
    }

    // Files of one split; class folders not among the known classes are reported, not guessed.
    std::vector<LabeledFile> split(const fs::path& dir, const std::vector<std::string>& classes, bool count) {
        std::vector<LabeledFile> files;
        for (const fs::path& c : class_dirs(dir, count)) {
            const std::string name = c.filename().string();
            const auto at = std::lower_bound(classes.begin(), classes.end(), name);
            if (at == classes.end() || *at != name) {
                for (const std::string& f : images_below(c))
                    s_.problems.push_back({f, "class folder '" + name + "' does not exist in the training folder"});
                continue;
            }
            for (std::string& f : images_below(c)) files.push_back({std::move(f), std::int32_t(at - classes.begin())});
        }
        return files;
    }

private:
    FolderScan& s_;
};

fs::path find_child(const fs::path& root, std::initializer_list<const char*> names) {
    std::error_code ec;
    for (const char* want : names)
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec) && lower(it->path().filename().string()) == want) return it->path();
    return {};
}

}  // namespace

FolderScan scan_image_folder(const std::string& root_text) {
    const fs::path root(root_text);
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        throw input_error(root_text + ": not a folder; give the dataset's root folder (ROOT/CLASS/images)");
    FolderScan s;
    s.root = root_text;
    Walker walk(s);
    const fs::path train = find_child(root, {"train", "training"});
    const fs::path valid = find_child(root, {"valid", "validation", "val"});
    const fs::path test = find_child(root, {"test", "testing"});
    s.split_layout = !train.empty();
    const fs::path class_root = s.split_layout ? train : root;
    for (const fs::path& d : walk.class_dirs(class_root, true)) s.class_names.push_back(d.filename().string());
    std::sort(s.class_names.begin(), s.class_names.end());
    if (s.class_names.empty())
        throw input_error(class_root.string() + ": no class folders; put each class's images in a folder named "
                          "after the class (ROOT/CLASS/image.png)");
    s.train = walk.split(class_root, s.class_names, false);  // its loose files were counted above
    if (s.split_layout) {
        s.has_validation = !valid.empty();
        s.has_test = !test.empty();
        if (s.has_validation) s.validation = walk.split(valid, s.class_names, true);
        if (s.has_test) s.test = walk.split(test, s.class_names, true);
    }
    return s;
}

std::vector<std::int64_t> class_counts(const std::vector<LabeledFile>& files, std::size_t classes) {
    std::vector<std::int64_t> counts(classes, 0);
    for (const auto& f : files) ++counts[std::size_t(f.label)];
    return counts;
}

}  // namespace lf
