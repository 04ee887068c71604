#include "training/cli_event_parser.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace lf::ui {

namespace {

using Json = nlohmann::ordered_json;  // ordered: metrics keep the trainer's order ("loss" first)

constexpr EventKind kKinds[] = {EventKind::RunStarted, EventKind::Step,     EventKind::EpochEnd, EventKind::Paused,
                                EventKind::Resumed,    EventKind::Finished, EventKind::Stopped,  EventKind::Failed};

std::optional<EventKind> eventKind(const std::string& name) {
    for (EventKind k : kKinds)
        if (name == to_string(k)) return k;
    return std::nullopt;
}

double number(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::int64_t integer(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

QString text(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

// The CLI writes a metric that is not finite as null.
Metrics metrics(const Json& j) {
    Metrics m;
    const auto it = j.find("metrics");
    if (it == j.end() || !it->is_object()) return m;
    for (const auto& [name, v] : it->items())
        m.emplace_back(name, v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN());
    return m;
}

CliEvent trainEvent(const Json& j, EventKind kind) {
    CliEvent c;
    TrainEvent& e = c.train;
    e.kind = kind;
    e.epoch = integer(j, "epoch");
    e.epochs = integer(j, "epochs");
    e.step = integer(j, "step");
    e.steps_per_epoch = integer(j, "steps_per_epoch");
    e.total_steps = integer(j, "total_steps");
    e.metrics = metrics(j);
    e.learning_rate = number(j, "learning_rate");
    e.images_per_second = number(j, "images_per_second");
    e.eta_seconds = number(j, "eta_seconds");
    e.elapsed_seconds = number(j, "elapsed_seconds");
    e.data_wait_fraction = number(j, "data_wait_fraction");
    e.message = text(j, "message").toStdString();
    if (const auto d = j.find("data"); d != j.end() && d->is_object()) {
        e.data.queue_depth = integer(*d, "queue_depth");
        e.data.queue_capacity = integer(*d, "queue_capacity");
        e.data.images_per_second = number(*d, "images_per_second");
        e.data.workers = int(integer(*d, "workers"));
        e.data.from_cache = integer(*d, "from_cache");
        e.data.failed = integer(*d, "failed");
    }
    if (const auto r = j.find("rank_images_per_second"); r != j.end() && r->is_array())
        for (const Json& v : *r) c.rankImagesPerSecond << (v.is_number() ? v.get<double>() : 0.0);
    return c;
}

std::optional<CliEvent> recordEvent(const Json& j, const std::string& name) {
    CliEvent c;
    if (name == "run" || name == "resume") {
        c.type = CliEvent::Type::Run;
        c.id = integer(j, "run");
        c.path = text(j, "store");
    } else if (name == "checkpoint") {
        c.type = CliEvent::Type::Checkpoint;
        c.id = integer(j, "id");
    } else if (name == "data") {
        c.type = CliEvent::Type::Data;
        if (const auto it = j.find("classes"); it != j.end() && it->is_array())
            for (const Json& v : *it)
                if (v.is_string()) c.classes << QString::fromStdString(v.get<std::string>());
    } else if (name == "result") {
        c.type = CliEvent::Type::Result;
        c.id = integer(j, "run");
        c.status = parse_run_status(text(j, "status").toStdString()).value_or(RunStatus::Failed);
        c.message = text(j, "message");
        c.path = text(j, "weights");
    } else if (name == "error") {
        c.type = CliEvent::Type::Error;
        c.message = text(j, "message");
    } else {
        return std::nullopt;  // "data_problems" and objects of later versions
    }
    return c;
}

}  // namespace

std::optional<CliEvent> parseCliLine(QByteArrayView line) {
    const Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return std::nullopt;
    const auto name = j.find("event");
    if (name == j.end() || !name->is_string()) return std::nullopt;
    if (auto kind = eventKind(name->get<std::string>())) return trainEvent(j, *kind);
    return recordEvent(j, name->get<std::string>());
}

std::vector<CliEvent> CliEventParser::feed(QByteArrayView chunk) {
    std::vector<CliEvent> out;
    partial_.append(chunk);
    qsizetype start = 0;
    for (qsizetype end; (end = partial_.indexOf('\n', start)) >= 0; start = end + 1)
        if (auto e = parseCliLine(QByteArrayView(partial_).sliced(start, end - start))) out.push_back(std::move(*e));
    partial_.remove(0, start);
    return out;
}

std::vector<CliEvent> CliEventParser::finish() {
    std::vector<CliEvent> out;
    if (auto e = parseCliLine(partial_)) out.push_back(std::move(*e));
    partial_.clear();
    return out;
}

}  // namespace lf::ui
