#include "import/onnx_reader.h"

#include <filesystem>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "import/onnx_convert.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"

namespace lf {

namespace {

constexpr std::uint64_t kMaxOnnxFileBytes = 2ull << 30;  // protobuf's own limit

std::string opset_text(const onnx::ModelProto& m) {
    for (const auto& o : m.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") return std::to_string(o.version());
    return "?";
}

// The input normalisation our own export writes into the metadata; nothing for other producers.
std::string normalization_of(const onnx::ModelProto& m) {
    std::map<std::string, std::string> meta;
    for (const auto& p : m.metadata_props()) meta[p.key()] = p.value();
    auto it = meta.find("normalization");
    if (it == meta.end()) return {};
    if (meta.count("mean")) {
        const std::string& mean = meta["mean"];
        return mean.rfind("[0.485", 0) == 0 ? "imagenet" : std::string{};
    }
    return it->second == "x = pixel / 255" ? "unit" : std::string{};
}

onnx::ModelProto parse(const std::string& bytes, const std::string& origin) {
    onnx::ModelProto m;
    if (!m.ParseFromString(bytes))
        throw input_error(origin + ": not an ONNX model (its protobuf does not parse); the file is truncated or of another kind");
    if (!m.has_graph() || m.graph().node_size() == 0 || m.opset_import_size() == 0)
        throw input_error(origin + ": not an ONNX model (it holds no graph or no opset); the file is truncated or of another kind");
    return m;
}

ImportedModel convert(onnx::ModelProto& m, const std::string& origin, const std::string& model_dir) {
    try {
        onnx::shape_inference::InferShapes(m);
    } catch (const std::exception&) {
        // Shapes only help the checker's messages; the conversion derives its own.
    }
    ImportedModel out = onnx_import::Converter(m, origin, model_dir).run();
    out.source = "ONNX opset " + opset_text(m) +
                 (m.producer_name().empty() ? "" : " (" + m.producer_name() + " " + m.producer_version() + ")");
    out.normalization = normalization_of(m);
    return out;
}

}  // namespace

ImportedModel read_onnx_bytes(const std::string& bytes, const std::string& origin, const std::string& model_dir) {
    onnx::ModelProto m = parse(bytes, origin);
    try {
        onnx::checker::check_model(m);
    } catch (const std::exception& e) {
        throw input_error(origin + ": fails the ONNX checker: " + e.what());
    }
    return convert(m, origin, model_dir);
}

ImportedModel read_onnx_model(const std::string& path) {
    const std::string bytes = ReadableFile(path, "ONNX model", kMaxOnnxFileBytes).read_all();
    onnx::ModelProto m = parse(bytes, path);
    try {  // by path: the checker then also looks for the external data files
        onnx::checker::check_model(path);
    } catch (const std::exception& e) {
        throw input_error(path + ": fails the ONNX checker: " + e.what());
    }
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    return convert(m, path, dir.empty() ? "." : dir.string());
}

}  // namespace lf
