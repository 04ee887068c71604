#include "layerforge/tensorboard/run_log_writer.h"

#include <filesystem>

#include "layerforge/store/metric_rows.h"
#include "layerforge/tensorboard/metric_tags.h"

namespace lf::tensorboard {

RunLogWriter::RunLogWriter(std::string run_folder, std::optional<std::int64_t> resumed_at)
    : folder_(std::move(run_folder)), resumed_at_(resumed_at) {}

EventFileWriter& RunLogWriter::part(const std::string& name) {
    auto it = parts_.find(name);
    if (it != parts_.end()) return *it->second;
    auto w = std::make_unique<EventFileWriter>((std::filesystem::path(folder_) / name).string());
    if (resumed_at_) {
        Event start;
        start.wall_time = wall_clock_seconds();
        start.step = *resumed_at_ + 1;
        start.session_status = SessionStatus::Start;
        w->add(start);
    }
    return *parts_.emplace(name, std::move(w)).first->second;
}

void RunLogWriter::add(const MetricRow& row) {
    const Slot s = slot_for(row.split, row.name);
    part(s.part).add_scalar(s.tag, row.step, row.wall_time, row.value);
}

void RunLogWriter::flush() {
    for (auto& [name, w] : parts_) w->flush();
}

std::vector<std::string> RunLogWriter::files() const {
    std::vector<std::string> out;
    for (const auto& [name, w] : parts_) out.push_back(w->path());
    return out;
}

std::string run_folder_name(const std::string& run_name, std::int64_t run_id) {
    std::string s;
    for (const char c : run_name) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                          c == '_' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
        s += safe ? c : '_';
    }
    if (s.empty() || s == "." || s == "..") s = "run";
    return s + "-" + std::to_string(run_id);
}

}  // namespace lf::tensorboard
