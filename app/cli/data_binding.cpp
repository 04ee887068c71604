// The dataset options and binding shared by train, evaluate and predict.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/graph/model.h"

namespace lf::cli {

std::vector<OptionSpec> dataset_options() {
    return {{"dataset", "DIR", "train on this image folder (ROOT/CLASS/* or ROOT/train|valid|test/CLASS/*)"},
            {"validation-split", "X", "hold out this fraction of the training images, stratified (with --seed)"},
            {"workers", "N", "image decoding threads (default: one per core beyond the first)"}};
}

bool apply_dataset_options(const Args& args, Project& p) {
    const auto dir = args.value("dataset");
    if (dir) {
        p.dataset = DatasetBinding{.kind = "image-folder", .path = *dir, .validation = "test", .image = p.dataset.image};
    }
    if (auto v = args.number("validation-split")) {
        if (!(*v > 0 && *v < 1)) throw input_error("option --validation-split must be between 0 and 1");
        p.dataset.validation = "split";
        p.dataset.validation_split = *v;
    }
    if (auto v = args.integer("workers")) {
        if (*v < 1) throw input_error("option --workers must be at least 1");
        p.dataset.image["workers"] = *v;
    }
    return dir.has_value();
}

std::unique_ptr<BoundSources> bind_data(const Project& p, const std::string& project_path, const Reporter& out) {
    const Model model(p.graph);
    BindOptions o;
    o.input_shape = model.info(model.input_node()).layer.output;
    o.batch_size = p.training.batch_size;
    o.shuffle = p.training.shuffle;
    const std::filesystem::path proj(project_path);
    o.cache_file = (proj.parent_path() / (proj.stem().string() + ".lfcache")).string();
    std::unique_ptr<BoundSources> data = bind_sources(p.dataset, p.training.seed, o);
    auto count = [](const std::unique_ptr<BatchSource>& s) { return s ? std::to_string(s->size()) : std::string("no"); };
    out.line("data: " + count(data->train) + " training, " + count(data->validation) + " validation, " +
             count(data->test) + " test samples, " + std::to_string(data->class_names.size()) + " classes");
    Json problems = Json::array();
    for (const FileProblem& f : data->problems) {
        out.line("skipped " + f.path + ": " + f.reason);
        problems.push_back({{"path", f.path}, {"reason", f.reason}});
    }
    if (data->scan)  // image folders: what was found and skipped
        out.object({{"event", "data"}, {"train", data->train ? data->train->size() : 0},
                {"validation", data->validation ? data->validation->size() : 0},
                {"test", data->test ? data->test->size() : 0}, {"classes", data->class_names}, {"skipped", problems}});
    return data;
}

void report_pipeline_problems(const BoundSources& data, const Reporter& out) {
    Json problems = Json::array();
    for (const BatchSource* s : {data.train.get(), data.validation.get(), data.test.get()})
        if (auto* pipe = dynamic_cast<const ImagePipeline*>(s))
            for (const FileProblem& f : pipe->problems()) {
                out.line("skipped " + f.path + ": " + f.reason);
                problems.push_back({{"path", f.path}, {"reason", f.reason}});
            }
    if (!problems.empty()) out.object({{"event", "data_problems"}, {"skipped", problems}});
}

}  // namespace lf::cli
