#pragma once
// A template's data in memory for bench_cnn: Fashion-MNIST from its IDX files, or an image
// folder decoded and resized once through the engine's own image pipeline, so that training
// then runs from memory for every template alike and the decoding is timed apart.
#include <cstdint>
#include <cstdio>
#include <string>

#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"

#include "bench_common.h"

namespace bench {

struct TemplateData {
    lf::TensorDataset train, test;  // image folders have no test split: test stays empty
    double decode_ips = 0;          // image folders: images scanned, decoded and resized per second
    int decode_workers = 0;
    bool decoded() const { return decode_ips > 0; }
    // The images the inference pass runs over: the test split, else the training images.
    const lf::TensorDataset& inference() const { return test.size() ? test : train; }
};

inline lf::Shape input_shape(const lf::Project& proj) {
    const lf::Model shapes = lf::Model::shapes_only(proj.graph);
    return shapes.info(shapes.input_node()).layer.output;
}

// One epoch of the binding's training pipeline, in file order, copied into memory. Validation
// is off so every image trains; augmentation is off, since decoded once it would be frozen.
inline TemplateData decode_image_folder(const lf::Project& proj, std::int64_t limit) {
    lf::DatasetBinding binding = proj.dataset;
    binding.validation = "none";
    binding.limit_train = limit;
    for (const char* key : {"flip", "translate", "rotate", "brightness", "contrast"}) binding.image.erase(key);
    const lf::Shape shape = input_shape(proj);
    const auto start = Clock::now();
    auto sources = lf::bind_sources(binding, proj.training.seed, {.input_shape = shape, .batch_size = 64, .shuffle = false});
    for (const lf::FileProblem& f : sources->problems) std::fprintf(stderr, "bench_cnn: skipped %s: %s\n", f.path.c_str(), f.reason.c_str());
    lf::BatchSource& pipeline = *sources->train;
    TemplateData d;
    d.train.sample_shape = pipeline.sample_shape();
    d.train.class_names = sources->class_names;
    const std::size_t width = std::size_t(shape.elements());
    d.train.images.reserve(std::size_t(pipeline.size()) * width);
    pipeline.start_epoch(1);
    for (lf::BatchView v = pipeline.next(); v.count > 0; v = pipeline.next()) {
        d.train.images.insert(d.train.images.end(), v.images, v.images + std::size_t(v.count) * width);
        d.train.labels.insert(d.train.labels.end(), v.labels, v.labels + v.count);
    }
    if (d.train.size() == 0) throw lf::input_error(binding.path + ": no image decoded");
    d.decode_ips = double(d.train.size()) / (ms_since(start) / 1000.0);
    d.decode_workers = pipeline.stats().workers;
    return d;
}

// The first `limit` training images and the whole test split of the project's dataset.
inline TemplateData load_template_data(const lf::Project& proj, std::int64_t limit) {
    if (proj.dataset.kind == "image-folder") {
        if (proj.dataset.path.empty())
            throw lf::input_error(proj.name + " trains on an image folder: give one with --data DIR (DIR/CLASS/*.jpg; "
                                              "bench/make_photo_folder.py makes one)");
        return decode_image_folder(proj, limit);
    }
    lf::DatasetSplits splits = lf::load_fashion_mnist(proj.dataset.path, limit, 0);
    return {.train = std::move(splits.train), .test = std::move(splits.test)};
}

}  // namespace bench
