// The dataset options and binding shared by train, evaluate and predict.
#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/run/session.h"

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
    std::unique_ptr<BoundSources> data = bind_project_data(p, project_path);
    out.line(data_summary(*data));
    for (const FileProblem& f : data->problems) out.line("skipped " + f.path + ": " + f.reason);
    print_data_object(*data, out);
    return data;
}

Json problems_json(const std::vector<FileProblem>& problems) {
    Json j = Json::array();
    for (const FileProblem& f : problems) j.push_back({{"path", f.path}, {"reason", f.reason}});
    return j;
}

void print_data_object(const BoundSources& data, const Reporter& out) {
    if (data.scan)  // image folders: what was found and skipped
        out.object({{"event", "data"}, {"train", data.train ? data.train->size() : 0},
                    {"validation", data.validation ? data.validation->size() : 0},
                    {"test", data.test ? data.test->size() : 0}, {"classes", data.class_names},
                    {"skipped", problems_json(data.problems)}});
}

void report_pipeline_problems(const BoundSources& data, const Reporter& out) {
    const std::vector<FileProblem> problems = pipeline_problems(data);
    for (const FileProblem& f : problems) out.line("skipped " + f.path + ": " + f.reason);
    if (!problems.empty()) out.object({{"event", "data_problems"}, {"skipped", problems_json(problems)}});
}

}  // namespace lf::cli
