#include "layerforge/tensorboard/event.h"

#include "protobuf_wire.h"

namespace lf::tensorboard {

namespace {

// TensorFlow's DataType values (tensorflow/core/framework/types.proto) a scalar can have here.
constexpr std::uint64_t kDtFloat = 1, kDtDouble = 2;

// A repeated float or double field: packed (one length-delimited field), or one value per field.
template <class T>
void read_repeated(wire::Reader& r, int type, int unpacked_type, const char* field, std::vector<double>& values) {
    if (type == unpacked_type) {
        values.push_back(double(r.fixed<T>()));
        return;
    }
    r.expect(type, wire::Bytes, field);
    wire::Reader packed(r.bytes(), field);
    while (!packed.done()) values.push_back(double(packed.fixed<T>()));
}

// A TensorProto holding one float or double (tf.summary.scalar's); nullopt for any other tensor.
std::optional<double> scalar_tensor(std::string_view bytes) {
    wire::Reader r(bytes, "tensor in a summary value");
    std::uint64_t dtype = 0;
    std::vector<double> values;
    std::string_view content;
    bool has_dims = false;
    while (!r.done()) {
        const auto [field, type] = r.key();
        if (field == 1 && type == wire::Varint) {
            dtype = r.varint();
        } else if (field == 2 && type == wire::Bytes) {  // TensorShapeProto: dim is field 2
            wire::Reader shape(r.bytes(), "tensor shape");
            while (!shape.done()) {
                const auto [f, t] = shape.key();
                if (f == 2) has_dims = true;
                shape.skip(t);
            }
        } else if (field == 4 && type == wire::Bytes) {
            content = r.bytes();
        } else if (field == 5) {
            read_repeated<float>(r, type, wire::Fixed32, "float_val", values);
        } else if (field == 6) {
            read_repeated<double>(r, type, wire::Fixed64, "double_val", values);
        } else {
            r.skip(type);
        }
    }
    if (has_dims || (dtype != kDtFloat && dtype != kDtDouble)) return std::nullopt;
    if (!content.empty()) {
        wire::Reader c(content, "tensor_content");
        if (dtype == kDtFloat && content.size() == 4) return double(c.fixed<float>());
        if (dtype == kDtDouble && content.size() == 8) return c.fixed<double>();
        return std::nullopt;
    }
    if (values.size() != 1) return std::nullopt;
    return values[0];
}

void decode_value(std::string_view bytes, Event& e) {
    wire::Reader r(bytes, "summary value");
    std::string_view tag;
    std::optional<double> value;
    while (!r.done()) {
        const auto [field, type] = r.key();
        if (field == 1) {
            r.expect(type, wire::Bytes, "tag");
            tag = r.bytes();
        } else if (field == 2) {
            r.expect(type, wire::Fixed32, "simple_value");
            value = double(r.fixed<float>());
        } else if (field == 8) {
            r.expect(type, wire::Bytes, "tensor");
            value = scalar_tensor(r.bytes());
        } else {
            r.skip(type);
        }
    }
    if (value) e.scalars.push_back({std::string(tag), *value});
}

void decode_summary(std::string_view bytes, Event& e) {
    wire::Reader r(bytes, "summary");
    while (!r.done()) {
        const auto [field, type] = r.key();
        if (field == 1) {
            r.expect(type, wire::Bytes, "value");
            decode_value(r.bytes(), e);
        } else {
            r.skip(type);
        }
    }
}

SessionStatus decode_session_log(std::string_view bytes) {
    wire::Reader r(bytes, "session_log");
    SessionStatus s = SessionStatus::Unspecified;
    while (!r.done()) {
        const auto [field, type] = r.key();
        if (field == 1 && type == wire::Varint) {
            const std::uint64_t v = r.varint();
            s = v <= 3 ? SessionStatus(v) : SessionStatus::Unspecified;
        } else {
            r.skip(type);
        }
    }
    return s;
}

}  // namespace

void encode_event(const Event& e, std::string& out) {
    wire::put_key(out, 1, wire::Fixed64);
    wire::put_fixed(out, &e.wall_time, 8);
    if (e.step != 0) {
        wire::put_key(out, 2, wire::Varint);
        wire::put_varint(out, std::uint64_t(e.step));
    }
    if (!e.file_version.empty()) wire::put_bytes(out, 3, e.file_version);
    if (!e.scalars.empty()) {
        std::string summary;
        for (const Scalar& s : e.scalars) {
            std::string value;
            wire::put_bytes(value, 1, s.tag);
            wire::put_key(value, 2, wire::Fixed32);
            const float f = float(s.value);
            wire::put_fixed(value, &f, 4);
            wire::put_bytes(summary, 1, value);
        }
        wire::put_bytes(out, 5, summary);
    }
    if (e.session_status) {
        std::string log;
        wire::put_key(log, 1, wire::Varint);
        wire::put_varint(log, std::uint64_t(*e.session_status));
        wire::put_bytes(out, 6, log);
    }
}

void decode_event(std::string_view bytes, Event& e) {
    e.wall_time = 0;
    e.step = 0;
    e.file_version.clear();
    e.scalars.clear();
    e.session_status.reset();
    wire::Reader r(bytes, "event");
    while (!r.done()) {
        const auto [field, type] = r.key();
        switch (field) {
        case 1: r.expect(type, wire::Fixed64, "wall_time"); e.wall_time = r.fixed<double>(); break;
        case 2: r.expect(type, wire::Varint, "step"); e.step = std::int64_t(r.varint()); break;
        case 3: r.expect(type, wire::Bytes, "file_version"); e.file_version = r.bytes(); break;
        case 5: r.expect(type, wire::Bytes, "summary"); decode_summary(r.bytes(), e); break;
        case 6: r.expect(type, wire::Bytes, "session_log"); e.session_status = decode_session_log(r.bytes()); break;
        default: r.skip(type);
        }
    }
}

}  // namespace lf::tensorboard
