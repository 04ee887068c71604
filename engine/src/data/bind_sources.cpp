// bind_sources: a dataset binding -> batch sources. Fashion-MNIST stays in memory; an image
// folder becomes one pipeline per split, configured by dataset.image.
#include <algorithm>
#include <random>
#include <set>

#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/normalization.h"

namespace lf {

namespace {

const std::set<std::string> kImageKeys = {"resize", "normalize", "flip", "translate", "rotate", "brightness",
                                          "contrast", "shuffle_buffer", "workers", "prefetch", "cache",
                                          "drop_remainder", "alpha_background"};

// Typed, range-checked reads of dataset.image; errors name the key.
class ImageParams {
public:
    explicit ImageParams(const Params& p) : p_(p) {
        for (const auto& [key, value] : p)
            if (!kImageKeys.count(key)) {
                std::string known;
                for (const auto& k : kImageKeys) known += (known.empty() ? "" : ", ") + k;
                throw input_error("dataset.image." + key + ": unknown setting; use one of " + known);
            }
    }
    double number(const std::string& key, double fallback, double lo, double hi) const {
        auto it = p_.find(key);
        if (it == p_.end()) return fallback;
        double v = 0;
        if (auto* i = std::get_if<std::int64_t>(&it->second)) v = double(*i);
        else if (auto* d = std::get_if<double>(&it->second)) v = *d;
        else throw fail(key, "must be a number");
        if (!(v >= lo && v <= hi)) throw fail(key, "must be between " + to_string(ParamValue(lo)) + " and " + to_string(ParamValue(hi)));
        return v;
    }
    bool flag(const std::string& key, bool fallback) const {
        auto it = p_.find(key);
        if (it == p_.end()) return fallback;
        if (auto* b = std::get_if<bool>(&it->second)) return *b;
        throw fail(key, "must be true or false");
    }
    std::string choice(const std::string& key, const std::string& fallback, std::initializer_list<const char*> allowed) const {
        auto it = p_.find(key);
        if (it == p_.end()) return fallback;
        auto* s = std::get_if<std::string>(&it->second);
        std::string list;
        for (const char* a : allowed) {
            if (s && *s == a) return *s;
            list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
        }
        throw fail(key, "must be one of " + list);
    }
    std::string text(const std::string& key, const std::string& fallback) const {
        auto it = p_.find(key);
        if (it == p_.end()) return fallback;
        if (auto* s = std::get_if<std::string>(&it->second)) return *s;
        throw fail(key, "must be a string");
    }
    std::optional<std::array<std::uint8_t, 3>> color(const std::string& key) const {
        auto it = p_.find(key);
        if (it == p_.end()) return std::nullopt;
        auto* list = std::get_if<IntList>(&it->second);
        if (!list || list->size() != 3 || std::any_of(list->begin(), list->end(), [](std::int64_t v) { return v < 0 || v > 255; }))
            throw fail(key, "must be [r, g, b] with values 0..255");
        return std::array<std::uint8_t, 3>{std::uint8_t((*list)[0]), std::uint8_t((*list)[1]), std::uint8_t((*list)[2])};
    }

private:
    static Error fail(const std::string& key, const std::string& what) {
        return input_error("dataset.image." + key + ": " + what);
    }
    const Params& p_;
};

std::vector<LabeledFile> pick(const std::vector<LabeledFile>& files, const std::vector<std::int64_t>& index) {
    std::vector<LabeledFile> out;
    for (std::int64_t i : index) out.push_back(files[std::size_t(i)]);
    return out;
}

// The first `limit` files of a seeded shuffle, back in (label, path) order.
std::vector<LabeledFile> limit_files(std::vector<LabeledFile> files, std::int64_t limit, std::uint64_t seed) {
    if (limit <= 0 || limit >= std::int64_t(files.size())) return files;
    std::vector<std::int64_t> index(files.size());
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = std::int64_t(i);
    std::mt19937_64 rng(seed);
    for (std::size_t i = index.size(); i > 1; --i) std::swap(index[i - 1], index[rng() % i]);
    index.resize(std::size_t(limit));
    std::sort(index.begin(), index.end());
    return pick(files, index);
}

std::vector<std::int32_t> labels_of(const std::vector<LabeledFile>& files) {
    std::vector<std::int32_t> l;
    for (const auto& f : files) l.push_back(f.label);
    return l;
}

void bind_image_folder(BoundSources& out, const DatasetBinding& b, std::int64_t seed, const BindOptions& o) {
    if (b.path.empty()) throw input_error("dataset.path: give the image folder (ROOT/CLASS/images) to train on");
    const SampleSpec spec = sample_spec(b, o.input_shape);
    const ImageParams image(b.image);
    FolderScan scan = scan_image_folder(b.path);
    if (!b.classes.empty() && b.classes != scan.class_names) {
        std::string found;
        for (const auto& c : scan.class_names) found += (found.empty() ? "" : ", ") + c;
        throw input_error(b.path + ": the class folders (" + found +
                          ") differ from the project's dataset.classes, which fix the label ids; rename the "
                          "folders back or clear dataset.classes to relabel (retrain from scratch)");
    }
    std::vector<LabeledFile> train = limit_files(scan.train, b.limit_train, std::uint64_t(seed));
    std::vector<LabeledFile> validation, test = limit_files(scan.test, b.limit_test, std::uint64_t(seed));
    bool has_validation = false;
    if (b.validation != "none" && scan.has_validation) {
        validation = scan.validation, has_validation = true;
    } else if (b.validation == "split") {
        auto [kept, held] = split_indices(labels_of(train), b.validation_split, std::uint64_t(seed));
        validation = pick(train, held), has_validation = true;
        train = pick(train, kept);
    } else if (b.validation == "test" && scan.has_test) {
        validation = test, has_validation = true;
    }

    PipelineOptions po;
    po.sample = spec;
    po.batch_size = std::max<std::int64_t>(1, o.batch_size);
    po.seed = std::uint64_t(seed);
    po.workers = int(image.number("workers", 0, 0, 64));
    po.prefetch = int(image.number("prefetch", 0, 0, 1024));
    const std::string cache = image.choice("cache", "none", {"none", "memory", "file"});
    po.cache = cache == "memory" ? CacheMode::Memory : cache == "file" ? CacheMode::File : CacheMode::None;
    if (po.cache == CacheMode::File && o.cache_file.empty()) po.cache = CacheMode::Memory;

    PipelineOptions tp = po;  // training: shuffled, augmented, maybe dropping the remainder
    tp.shuffle = o.shuffle;
    tp.shuffle_buffer = std::int64_t(image.number("shuffle_buffer", 0, 0, 1e12));
    tp.drop_remainder = image.flag("drop_remainder", false);
    tp.augmentation.flip = image.flag("flip", false);
    tp.augmentation.translate = image.number("translate", 0, 0, 0.5);
    tp.augmentation.rotate = image.number("rotate", 0, 0, 180);
    tp.augmentation.brightness = image.number("brightness", 0, 0, 1);
    tp.augmentation.contrast = image.number("contrast", 0, 0, 1);
    tp.augment = tp.augmentation.any();
    if (tp.cache == CacheMode::File) tp.cache_file = o.cache_file;
    po.cache = po.cache == CacheMode::File ? CacheMode::Memory : po.cache;  // one cache file: training's

    out.class_names = scan.class_names;
    out.problems = scan.problems;
    auto train_pipe = std::make_unique<ImagePipeline>(train, scan.class_names, tp);
    const std::string normalize = image.text("normalize", "scale");
    if (auto preset = normalization_preset(normalize, spec.channels)) {
        out.mean = preset->mean, out.std = preset->std;
    } else if (normalize == "standardize") {
        train_pipe->compute_mean_std(out.mean, out.std);
    }
    if (!out.mean.empty()) {  // saved with the trained weights, so predict normalises the same way
        train_pipe->set_normalization(out.mean, out.std);
        po.sample.mean = out.mean, po.sample.std = out.std;
    }
    out.train = std::move(train_pipe);
    if (has_validation) out.validation = std::make_unique<ImagePipeline>(validation, scan.class_names, po);
    if (scan.has_test) out.test = std::make_unique<ImagePipeline>(test, scan.class_names, po);
    out.scan = std::move(scan);
}

}  // namespace

SampleSpec sample_spec(const DatasetBinding& b, const Shape& input) {
    if (input.rank() != 3 || (input[2] != 1 && input[2] != 3) || input[0] < 1 || input[1] < 1)
        throw input_error("an image-folder dataset needs an Input of shape (height, width, 1 or 3), not " + input.str() +
                          "; change the Input layer's shape");
    const ImageParams image(b.image);
    SampleSpec s;
    s.height = int(input[0]), s.width = int(input[1]), s.channels = int(input[2]);
    const std::string mode = image.choice("resize", "stretch", {"stretch", "crop", "pad"});
    s.resize = mode == "crop" ? ResizeMode::Crop : mode == "pad" ? ResizeMode::Pad : ResizeMode::Stretch;
    if (auto bg = image.color("alpha_background")) s.composite_alpha = true, s.background = *bg;
    return s;
}

std::unique_ptr<BoundSources> bind_sources(const DatasetBinding& b, std::int64_t seed, const BindOptions& o) {
    check_validation_mode(b);
    auto out = std::make_unique<BoundSources>();
    if (b.kind == "image-folder") {
        bind_image_folder(*out, b, seed, o);
        return out;
    }
    if (b.kind != "fashion-mnist")
        throw input_error("dataset.kind: unknown kind '" + b.kind + "'; use \"fashion-mnist\" or \"image-folder\"");
    out->tensors = load_bound_data(b, seed);
    BoundData& t = out->tensors;
    out->class_names = t.train.class_names;
    out->train = std::make_unique<TensorSource>(t.train, o.batch_size, o.shuffle, std::uint64_t(seed));
    if (t.validation) out->validation = std::make_unique<TensorSource>(*t.validation, o.batch_size, false, 0);
    out->test = std::make_unique<TensorSource>(t.test, o.batch_size, false, 0);
    return out;
}

}  // namespace lf
