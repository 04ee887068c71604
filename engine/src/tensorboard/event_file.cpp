#include "layerforge/tensorboard/event_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/store/metric_rows.h"
#include "layerforge/tensorboard/tfrecord.h"

namespace lf::tensorboard {

namespace fs = std::filesystem;

namespace {

// Far above any real event file; read whole, so a cap keeps a hostile one from exhausting memory.
constexpr std::uint64_t kMaxEventFileBytes = 16ull << 30;

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return "localhost";
    return buf;
}

// <unix time>.<host>.<pid>.<n>: n tells apart files one process opens within the same second.
std::string file_name() {
    static std::atomic<int> counter{0};
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return "events.out.tfevents." + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now).count()) +
           "." + host_name() + "." + std::to_string(getpid()) + "." + std::to_string(counter++);
}

}  // namespace

bool is_event_file_name(const std::string& file_name) { return file_name.find("tfevents") != std::string::npos; }

EventFileWriter::EventFileWriter(const std::string& folder) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw runtime_error("cannot create the TensorBoard log folder " + folder + ": " + ec.message());
    path_ = (fs::path(folder) / file_name()).string();
    file_ = std::fopen(path_.c_str(), "wbx");
    if (!file_)
        throw runtime_error("cannot create the TensorBoard event file " + path_ + ": " + std::strerror(errno) +
                            "; check that the folder is writable");
    Event first;
    first.wall_time = wall_clock_seconds();
    first.file_version = "brain.Event:2";
    add(first);
    flush();
}

EventFileWriter::~EventFileWriter() {
    if (file_) std::fclose(file_);
}

void EventFileWriter::add(const Event& e) {
    encoded_.clear();
    encode_event(e, encoded_);
    append_record(pending_, encoded_);
}

void EventFileWriter::add_scalar(const std::string& tag, std::int64_t step, double wall_time, double value) {
    scalar_.wall_time = wall_time;
    scalar_.step = step;
    if (scalar_.scalars.size() != 1) scalar_.scalars.resize(1);
    scalar_.scalars[0].tag = tag;
    scalar_.scalars[0].value = value;
    add(scalar_);
}

void EventFileWriter::flush() {
    if (pending_.empty()) return;
    const bool ok = std::fwrite(pending_.data(), 1, pending_.size(), file_) == pending_.size() && std::fflush(file_) == 0;
    pending_.clear();
    if (!ok)
        throw runtime_error("cannot write the TensorBoard event file " + path_ + ": " + std::strerror(errno));
}

std::string Damage::text() const {
    return file + ": " + what + " at byte " + std::to_string(offset) + "; the " + std::to_string(events_before) +
           " event" + (events_before == 1 ? "" : "s") + " before it were read";
}

std::optional<Damage> read_event_bytes(std::string_view bytes, const std::string& name,
                                       const std::function<void(const Event&)>& on_event) {
    RecordReader records(bytes);
    Event e;
    std::size_t events = 0;
    for (;;) {
        const std::uint64_t at = records.offset();
        const std::optional<std::string_view> data = records.next();
        if (!data) {
            if (records.error().empty()) return std::nullopt;
            Damage d{name, at, records.error()};
            if (events == 0 && at == 0)
                d.what = "not a TensorBoard event file (no TFRecord at its start: " + records.error() + ")";
            d.events_before = events;
            return d;
        }
        try {
            decode_event(*data, e);
        } catch (const Error& err) {
            Damage d{name, at, err.what()};
            if (events == 0) d.what = "not a TensorBoard event file (its first record is no Event: " + d.what + ")";
            d.events_before = events;
            return d;
        }
        ++events;
        on_event(e);
    }
}

std::optional<Damage> read_event_file(const std::string& path, const std::function<void(const Event&)>& on_event) {
    const std::string bytes = read_file(path, "TensorBoard event file", kMaxEventFileBytes);
    return read_event_bytes(bytes, path, on_event);
}

}  // namespace lf::tensorboard
