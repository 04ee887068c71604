#include "layerforge/import/import.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "import/keras_formats.h"
#include "import/onnx_reader.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_set.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/run/session.h"  // default_weights_path
#include "layerforge/store/weights_file.h"

namespace lf {

const std::vector<ModelFormat>& model_formats() {
    static const std::vector<ModelFormat> formats{
        {"ONNX", {".onnx"}, read_onnx_model},
        {"Keras 3", {".keras"}, keras::read_archive_file},
        {"Keras HDF5", {".h5", ".hdf5"}, keras::read_h5_file},
    };
    return formats;
}

namespace {

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

std::string known_extensions() {
    std::string s;
    for (const ModelFormat& f : model_formats())
        for (std::string_view e : f.extensions) s += (s.empty() ? "" : ", ") + std::string(e);
    return s.empty() ? "none in this build" : s;
}

}  // namespace

ImportedModel import_model_file(const std::string& path) {
    const std::string ext = lower_extension(path);
    for (const ModelFormat& f : model_formats())
        for (std::string_view e : f.extensions)
            if (ext == e) return f.read(path);
    throw Error(ErrorKind::Input, path + ": not a model file Layerforge imports (extensions: " + known_extensions() + ")");
}

std::string imported_weights_bytes(const ImportedModel& m, const std::string& origin) {
    Model model(m.graph);
    std::vector<std::string> problems;
    std::map<std::string, bool> used;
    for (const WeightRef& r : model.weight_refs()) {
        const auto it = m.weights.find(r.name);
        if (it == m.weights.end()) {
            problems.push_back(r.name + ": not in the file");
            continue;
        }
        used[r.name] = true;
        const std::vector<std::int64_t> want(r.shape.dims.begin(), r.shape.dims.end());
        if (it->second.shape != want || it->second.values.size() != r.size) {
            problems.push_back(r.name + ": " + dims_text(it->second.shape) + " in the file, " + dims_text(want) + " in the model");
            continue;
        }
        std::copy(it->second.values.begin(), it->second.values.end(), model.weights().begin() + static_cast<std::ptrdiff_t>(r.offset));
    }
    for (const auto& [name, t] : m.weights)
        if (!used.count(name) && !model.find_weight(name)) problems.push_back(name + ": in the file, not in the model");
    if (!problems.empty()) {
        std::string msg = origin + ": the weights do not match the network:";
        for (const std::string& p : problems) msg += "\n  " + p;
        throw Error(ErrorKind::Input, msg);
    }
    return encode_weights(model, {{"source", m.source}});
}

std::vector<std::string> imported_project_files(const std::string& project_path) {
    const std::filesystem::path p(project_path);
    return {project_path, default_weights_path(project_path),
            (p.parent_path() / (p.stem().string() + ".pretrained.safetensors")).string()};
}

void write_imported_project(const ImportedModel& m, const std::string& project_path) {
    const std::filesystem::path p(project_path);
    const std::vector<std::string> files = imported_project_files(project_path);
    const auto name = [](const std::string& path) { return std::filesystem::path(path).filename().string(); };
    Project project;
    project.name = p.stem().string();
    project.graph = m.graph;
    project.training.initial_weights = name(files[2]);
    const std::string weights = imported_weights_bytes(m, project_path);
    const std::string folder = p.parent_path().empty() ? "." : p.parent_path().string();
    // The weights twice: as the project's weights, so Evaluate, Predict and Export use them at once
    // (training replaces them), and as the initial weights every run starts from (never replaced).
    write_file_set(folder, {{name(files[0]), serialize_project(project)}, {name(files[1]), weights}, {name(files[2]), weights}},
                   "the imported project");
}

}  // namespace lf
