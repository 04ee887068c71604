#pragma once
// The parts of TensorFlow's Event protobuf (tensorflow/core/util/event.proto) that carry
// scalars, encoded and decoded by hand: wall_time (1), step (2), file_version (3), summary (5:
// repeated Summary.Value with tag (1) and simple_value (2), or a scalar float/double tensor (8)
// as TF2's tf.summary.scalar writes it) and session_log (6: status (1)). Other fields, and
// summary values that are not scalars (images, histograms, text), are skipped.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lf::tensorboard {

enum class SessionStatus { Unspecified = 0, Start = 1, Stop = 2, Checkpoint = 3 };

struct Scalar {
    std::string tag;
    double value = 0;
};

struct Event {
    double wall_time = 0;  // seconds since the Unix epoch
    std::int64_t step = 0;
    std::string file_version;  // "brain.Event:2" in a file's first event
    std::vector<Scalar> scalars;
    std::optional<SessionStatus> session_status;
};

// Appends the encoded event to `out` (scalars as simple_value, a 32-bit float).
void encode_event(const Event& e, std::string& out);
// Throws lf::Error (Input) saying what is malformed; fills `e` (cleared first, its storage reused).
void decode_event(std::string_view bytes, Event& e);

}  // namespace lf::tensorboard
