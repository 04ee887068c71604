// layerforge-cli dataset inspect DIR | dataset import-idx --out DIR: look at an image folder
// before training on it, and turn Fashion-MNIST's IDX files into one.
#include <cstdio>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/idx_import.h"
#include "layerforge/data/scan.h"

namespace lf::cli {

namespace {

std::string count_list(const std::map<std::string, std::int64_t>& m) {
    std::string s;
    for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k + " (" + std::to_string(v) + ")";
    return s.empty() ? "-" : s;
}

int run_inspect(const Args& args, const Reporter& out) {
    const std::string& root = args.require(1, "DIR (the image folder)");
    const FolderReport r = inspect_image_folder(root, int(args.integer("workers").value_or(0)));
    const FolderScan& s = r.scan;
    std::map<std::string, std::int64_t> channels;
    for (const auto& [c, n] : r.channels) channels[c == 1 ? "gray" : c == 3 ? "RGB" : "RGBA"] = n;
    auto sum = [](const std::vector<std::int64_t>& v) { std::int64_t t = 0; for (auto x : v) t += x; return t; };

    out.line(root + "  (layout: " + (s.split_layout ? "train/ valid/ test/ folders" : "one folder per class") + ")");
    out.line("classes (" + std::to_string(s.class_names.size()) + "):");
    Json classes = Json::array();
    for (std::size_t i = 0; i < s.class_names.size(); ++i) {
        std::string line = "  " + std::to_string(i) + "  " + s.class_names[i] + "  " + std::to_string(r.train_counts[i]);
        Json c = {{"label", i}, {"name", s.class_names[i]}, {"train", r.train_counts[i]}};
        if (s.has_validation) line += "  validation " + std::to_string(r.validation_counts[i]), c["validation"] = r.validation_counts[i];
        if (s.has_test) line += "  test " + std::to_string(r.test_counts[i]), c["test"] = r.test_counts[i];
        if (r.train_counts[i] == 0) line += "  (empty)";
        out.line(line);
        classes.push_back(c);
    }
    out.line("usable images: " + std::to_string(r.usable) + " (train " + std::to_string(sum(r.train_counts)) +
             (s.has_validation ? ", validation " + std::to_string(sum(r.validation_counts)) : std::string()) +
             (s.has_test ? ", test " + std::to_string(sum(r.test_counts)) : std::string()) + ")");
    out.line("sizes: " + count_list(r.sizes));
    out.line("channels: " + count_list(channels));
    out.line("formats: " + count_list(r.formats));
    out.line("ignored: " + std::to_string(s.hidden) + " hidden, " + std::to_string(s.non_images) + " non-image files, " +
             std::to_string(s.outside_classes) + " images outside class folders");
    Json dups = Json::array();
    if (!r.duplicates.empty()) out.line("duplicates (" + std::to_string(r.duplicates.size()) + " groups of identical files):");
    for (const auto& group : r.duplicates) {
        std::string line = " ";
        for (const auto& path : group) line += " " + path;
        out.line(line);
        dups.push_back(group);
    }
    out.line("problems (" + std::to_string(r.problems.size()) + "):");
    Json problems = Json::array();
    for (const FileProblem& f : r.problems) {
        out.line("  " + f.path + ": " + f.reason);
        problems.push_back({{"path", f.path}, {"reason", f.reason}});
    }
    out.object({{"event", "result"}, {"root", root}, {"layout", s.split_layout ? "split" : "classes"},
                {"classes", classes}, {"total_usable", r.usable}, {"problem_count", r.problems.size()},
                {"problems", problems}, {"sizes", r.sizes}, {"channels", channels}, {"formats", r.formats},
                {"hidden", s.hidden}, {"non_images", s.non_images}, {"outside_classes", s.outside_classes},
                {"duplicates", dups}});
    return 0;
}

int run_import(const Args& args, const Reporter& out) {
    const auto dir = args.value("out");
    if (!dir) throw input_error("dataset import-idx needs --out DIR, the folder to write the images to");
    const IdxImportResult r = import_fashion_mnist(*dir, args.value("from").value_or(""), args.integer("limit-train").value_or(0),
                                                   args.integer("limit-test").value_or(0), int(args.integer("workers").value_or(0)));
    out.line("wrote " + std::to_string(r.train) + " training and " + std::to_string(r.test) + " test images to " + *dir +
             "/{train,test}/CLASS/*.png");
    out.object({{"event", "result"}, {"out", *dir}, {"train", r.train}, {"test", r.test}, {"classes", r.class_folders}});
    return 0;
}

int run_dataset(const Args& args, const Reporter& out) {
    const std::string& what = args.subcommand({"inspect", "import-idx"});
    return what == "inspect" ? run_inspect(args, out) : run_import(args, out);
}

}  // namespace

Command dataset_command() {
    CommandSpec s{"dataset", "dataset inspect DIR | dataset import-idx --out DIR [options]",
                  "inspect: lists an image folder's classes with their image counts, sizes, channels, formats,\n"
                  "duplicates and every problem file with its reason (decodes every image).\n"
                  "import-idx: writes Fashion-MNIST's IDX files as PNG folders OUT/{train,test}/CLASS/.",
                  {{"out", "DIR", "import-idx: the folder to write"},
                   {"from", "DIR", "import-idx: folder with the IDX .gz files (default: Debian's dataset-fashion-mnist)"},
                   {"limit-train", "N", "import-idx: only the first N training images"},
                   {"limit-test", "N", "import-idx: only the first N test images"},
                   {"workers", "N", "threads (default: all cores)"},
                   kJsonOption}};
    return {s, run_dataset, false};
}

}  // namespace lf::cli
