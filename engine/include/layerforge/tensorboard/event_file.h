#pragma once
// One TensorBoard event file: events.out.tfevents.<unix time>.<host>.<pid>.<n>, TFRecord-framed
// Event protobufs, the first one file_version "brain.Event:2".
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "layerforge/tensorboard/event.h"

namespace lf::tensorboard {

// Whether TensorBoard reads a file of this name as an event file (its name holds "tfevents").
bool is_event_file_name(const std::string& file_name);

// Appends events to a new file in `folder` (created with its parents). Events collect in memory
// and reach the file, as whole records, at flush(): a live TensorBoard never reads half a record.
class EventFileWriter {
public:
    // Throws lf::Error (Runtime) naming the folder or the file when it cannot be created.
    explicit EventFileWriter(const std::string& folder);
    ~EventFileWriter();
    EventFileWriter(const EventFileWriter&) = delete;
    EventFileWriter& operator=(const EventFileWriter&) = delete;

    const std::string& path() const { return path_; }
    void add(const Event& e);
    void add_scalar(const std::string& tag, std::int64_t step, double wall_time, double value);
    // Throws lf::Error (Runtime) naming the file when the write fails (disk full, ...).
    void flush();

private:
    std::string path_;
    std::FILE* file_ = nullptr;
    std::string pending_, encoded_;  // framed records not yet written; one event's bytes
    Event scalar_;                   // reused by add_scalar
};

// Where a file's reading stopped short: the file, the byte offset of the damaged record and what is wrong.
struct Damage {
    std::string file;
    std::uint64_t offset = 0;
    std::string what;
    std::string text() const;  // "<file>: <what> at byte <offset>; the N events before it were read"
    std::size_t events_before = 0;
};

// Calls `on_event` for every event of the file in order; returns the damage that stopped the
// reading early, if any (everything before it has been delivered). A file that does not begin
// with a TFRecord at all is reported as not an event file. Throws lf::Error (Input) naming the
// file when it cannot be opened (missing, not a regular file, empty).
std::optional<Damage> read_event_file(const std::string& path, const std::function<void(const Event&)>& on_event);
// The same over bytes already in memory (the fuzz target's path); `name` names them in the damage.
std::optional<Damage> read_event_bytes(std::string_view bytes, const std::string& name,
                                       const std::function<void(const Event&)>& on_event);

}  // namespace lf::tensorboard
