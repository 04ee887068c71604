#include "export/python_code.h"

#include <cctype>
#include <cstdio>

#include "export/metadata.h"

namespace lf::exporter {

std::string python_name(const std::string& name, std::set<std::string>& taken) {
    std::string s;
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "l_" + s;
    static const std::set<std::string> reserved = {"x",    "self", "model", "nn",   "F",   "torch", "tf",  "np",
                                                   "os",   "json", "struct", "input", "id", "type",  "list", "map",
                                                   "min",  "max",  "sum",  "len",   "inputs", "outputs",
                                                   // Python keywords
                                                   "and", "as", "assert", "async", "await", "break", "class", "continue",
                                                   "def", "del", "elif", "else", "except", "False", "finally", "for",
                                                   "from", "global", "if", "import", "in", "is", "lambda", "None",
                                                   "nonlocal", "not", "or", "pass", "raise", "return", "True", "try",
                                                   "while", "with", "yield"};
    std::string unique = s;
    for (int i = 2; taken.count(unique) || reserved.count(unique); ++i) unique = s + "_" + std::to_string(i);
    taken.insert(unique);
    return unique;
}

std::string python_tuple(const std::vector<std::int64_t>& v) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + (v.size() == 1 ? ",)" : ")");
}

std::string python_float(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

std::string python_metadata(const ExportMetadata& meta, const std::vector<std::int64_t>& input_shape) {
    const auto e = metadata_entries(meta, InputLayout::NHWC);
    return "CLASSES = " + string_list(meta.classes) + "\n" +
           "# Input normalisation: " + e.at("normalization") + " (per channel; empty lists: none)\n" +
           "MEAN = " + float_list(meta.mean) + "\n" + "STD = " + float_list(meta.std) + "\n" +
           "INPUT_SHAPE = " + python_tuple(input_shape) + "  # one sample, channels last (NHWC), as in the studio\n";
}

}  // namespace lf::exporter
