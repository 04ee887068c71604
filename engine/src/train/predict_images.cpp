#include "layerforge/train/predict_images.h"

#include <algorithm>
#include <numeric>

#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/image.h"
#include "layerforge/data/transform.h"
#include "layerforge/train/confusion.h"
#include "layerforge/train/inference.h"

namespace lf {

namespace {

std::vector<std::int64_t> ranking_of(const std::vector<float>& p) {
    std::vector<std::int64_t> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[std::size_t(a)] > p[std::size_t(b)]; });
    return order;
}

// Decoded and scaled into `p.sample`; a file that cannot be read or decoded names itself in `p.error`.
bool load(FilePrediction& p, const SampleSpec& spec) {
    try {
        const std::vector<std::uint8_t> bytes = read_file_bytes(p.file);
        const Image img = load_sample(bytes.data(), bytes.size(), spec);
        p.sample.resize(std::size_t(spec.elements()));
        sample_to_float(img, spec, nullptr, 0, p.sample.data());
        return true;
    } catch (const Error& e) {
        p.error = e.what();
        if (p.error.rfind(p.file + ": ", 0) != 0) p.error = p.file + ": " + p.error;
        return false;
    }
}

}  // namespace

std::vector<FilePrediction> predict_image_files(Model& model, const Project& project,
                                                const std::vector<std::string>& files,
                                                const std::vector<float>& mean, const std::vector<float>& std,
                                                const std::string& device) {
    TensorDataset batch;
    batch.sample_shape = model.info(model.input_node()).layer.output;
    SampleSpec spec = sample_spec(project.dataset, batch.sample_shape);
    spec.mean = mean, spec.std = std;
    Inference inference(model, project.training, device);
    std::vector<FilePrediction> out(files.size());
    std::vector<FilePrediction*> loaded;
    for (std::size_t i = 0; i < files.size(); ++i) {
        out[i].file = files[i];
        if (!load(out[i], spec)) continue;
        batch.images.insert(batch.images.end(), out[i].sample.begin(), out[i].sample.end());
        batch.labels.push_back(0);
        loaded.push_back(&out[i]);
    }
    if (loaded.empty()) return out;
    const std::vector<float> outputs = inference.predict(batch);
    const std::int64_t width = std::int64_t(outputs.size() / loaded.size());
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        loaded[i]->probabilities = class_probabilities(outputs.data() + std::int64_t(i) * width, width);
        loaded[i]->ranking = ranking_of(loaded[i]->probabilities);
    }
    return out;
}

std::vector<std::string> class_names_for(std::vector<std::string> names, std::int64_t classes) {
    for (auto c = std::int64_t(names.size()); c < std::max<std::int64_t>(classes, 2); ++c)
        names.push_back("class " + std::to_string(c));
    return names;
}

}  // namespace lf
