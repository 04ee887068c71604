// export_model: checks everything first (mappings, opset, existing files), builds every file in
// memory (ONNX validated), then writes them as one set (core/file_set.h): all or recognisably none.
#include "layerforge/export/export.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include <nlohmann/json.hpp>

#include "export/inference_graph.h"
#include "export/keras_archive_writer.h"
#include "export/keras_writer.h"
#include "export/layer_mapping.h"
#include "export/metadata.h"
#include "export/onnx_writer.h"
#include "export/pytorch_writer.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/file_set.h"
#include "layerforge/project/project.h"
#include "layerforge/store/weights_file.h"

namespace lf {

namespace fs = std::filesystem;

ExportFormat parse_export_format(const std::string& name) {
    for (auto f : {ExportFormat::Onnx, ExportFormat::Safetensors, ExportFormat::PyTorch, ExportFormat::Keras})
        if (name == to_string(f)) return f;
    throw input_error("unknown export format '" + name + "'; choose onnx, safetensors, pytorch or keras");
}

DType parse_export_dtype(const std::string& name) {
    for (DType t : {DType::Float32, DType::BFloat16})
        if (name == to_string(t)) return t;
    throw input_error("unknown weight type '" + name + "'; choose float32 or bfloat16");
}

const char* to_string(ExportFormat f) {
    switch (f) {
    case ExportFormat::Onnx: return "onnx";
    case ExportFormat::Safetensors: return "safetensors";
    case ExportFormat::PyTorch: return "pytorch";
    case ExportFormat::Keras: return "keras";
    }
    return "?";
}

std::vector<std::string> export_file_names(ExportFormat f) {
    switch (f) {
    case ExportFormat::Onnx: return {"model.onnx"};
    case ExportFormat::Safetensors: return {"model.safetensors"};
    case ExportFormat::PyTorch: return {"model.py", "model_state.safetensors"};
    case ExportFormat::Keras: return {"keras_model.py", "keras_weights.npz", "model.keras"};
    }
    return {};
}

std::vector<std::string> unmapped_layers(const Model& m, const ExportOptions& options) {
    return exporter::unmapped(m, options.format);
}

namespace {

// The safetensors export: Keras-named weights plus the metadata and the graph as JSON.
std::string safetensors_export(const Model& m, const ExportMetadata& meta, DType dtype) {
    auto entries = exporter::metadata_entries(meta, InputLayout::NHWC);
    Project p;
    p.graph = m.graph();
    const auto project = nlohmann::json::parse(serialize_project(p));
    entries["graph"] = project.at("model").dump();  // the project file's "model": nodes and edges
    return encode_weights(m, entries, dtype);
}

// Every file's name and bytes, built before anything is written.
std::vector<std::pair<std::string, std::string>> build_files(const Model& m, const ExportMetadata& meta,
                                                             const ExportOptions& o) {
    const auto names = export_file_names(o.format);
    switch (o.format) {
    case ExportFormat::Onnx:
        return {{names[0], exporter::write_onnx(exporter::lower(m, o.layout, o.fold_batchnorm), meta, o)}};
    case ExportFormat::Safetensors: return {{names[0], safetensors_export(m, meta, o.dtype)}};
    case ExportFormat::PyTorch: {
        auto e = exporter::write_pytorch(exporter::lower(m, InputLayout::NHWC, o.fold_batchnorm), meta, names[1]);
        return {{names[0], std::move(e.code)}, {names[1], std::move(e.weights)}};
    }
    case ExportFormat::Keras: {
        auto e = exporter::write_keras(m, meta, names[1]);
        return {{names[0], std::move(e.code)}, {names[1], std::move(e.weights)}, {names[2], exporter::write_keras_archive(m)}};
    }
    }
    return {};
}

}  // namespace

std::vector<std::string> export_model(const Model& m, const ExportMetadata& meta, const ExportOptions& options,
                                      const std::string& out_dir) {
    if (options.format == ExportFormat::Onnx && (options.opset < kMinOnnxOpset || options.opset > kMaxOnnxOpset))
        throw input_error("ONNX opset " + std::to_string(options.opset) + " is not supported; choose " +
                          std::to_string(kMinOnnxOpset) + " to " + std::to_string(kMaxOnnxOpset));
    if (options.dtype != DType::Float32 && options.format != ExportFormat::Safetensors)
        throw input_error(std::string(to_string(options.format)) + " export writes float32 weights; " +
                          to_string(options.dtype) + " weights are written by the safetensors export only");
    exporter::require_mapped(m, options.format);
    std::error_code ec;
    if (fs::exists(out_dir, ec) && !fs::is_directory(out_dir, ec))
        throw input_error(out_dir + ": is a file, not a folder; choose an output folder");
    const std::vector<std::string> names = export_file_names(options.format);
    remove_stale_file_set_temporaries(out_dir, names.front());
    const std::vector<std::string> incomplete = incomplete_file_set(out_dir, names.front());  // a killed export's
    std::vector<std::string> existing;
    for (const auto& name : names)
        if (fs::exists(fs::path(out_dir) / name, ec) && std::find(incomplete.begin(), incomplete.end(), name) == incomplete.end())
            existing.push_back((fs::path(out_dir) / name).string());
    if (!existing.empty() && !options.force) {
        std::string list;
        for (const auto& e : existing) list += (list.empty() ? "" : ", ") + e;
        throw input_error(list + (existing.size() > 1 ? ": already exist" : ": already exists") +
                          "; use --force to overwrite (nothing was written)");
    }
    const FileSet files = build_files(m, meta, options);
    write_file_set(out_dir, files, std::string(to_string(options.format)) + " export");
    std::vector<std::string> written;
    for (const auto& [name, bytes] : files) written.push_back((fs::path(out_dir) / name).string());
    return written;
}

}  // namespace lf
