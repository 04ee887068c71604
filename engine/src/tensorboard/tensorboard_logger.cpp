#include "layerforge/tensorboard/tensorboard_logger.h"

#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/store/metric_rows.h"

namespace lf::tensorboard {

namespace {

// A small queue: the logger holds at most a few seconds of steps, and a TensorBoard watching
// the files sees them within the flush interval.
constexpr std::size_t kQueueRows = 1 << 14;

}  // namespace

TensorBoardLogger::TensorBoardLogger(const std::string& run_folder, std::int64_t run_id,
                                     std::optional<std::int64_t> resumed_at, Warn warn)
    : log_(run_folder, resumed_at),
      run_(run_id),
      warn_(std::move(warn)),
      writer_([this](const std::vector<MetricRow>& rows) { write(rows); }, kQueueRows) {
    std::error_code ec;
    std::filesystem::create_directories(run_folder, ec);
    if (ec || !folder_is_writable(run_folder)) {
        failure_ = "cannot create files in the TensorBoard log folder " + run_folder +
                   (ec ? " (" + ec.message() + ")" : std::string(" (it is read-only)"));
        failed_ = true;
        report();
    }
}

TensorBoardLogger::~TensorBoardLogger() = default;

void TensorBoardLogger::write(const std::vector<MetricRow>& rows) {
    if (failed_) return;
    try {
        for (const MetricRow& r : rows) log_.add(r);
        log_.flush();
    } catch (const std::exception& e) {
        std::lock_guard lock(failure_mutex_);
        failure_ = e.what();
        failed_ = true;
    }
}

void TensorBoardLogger::report() {
    if (reported_) return;
    reported_ = true;
    std::string why;
    {
        std::lock_guard lock(failure_mutex_);
        why = failure_;
    }
    if (warn_) warn_("TensorBoard logging stopped: " + why + "; the training goes on and the run store keeps its metrics");
}

void TensorBoardLogger::on_event(const TrainEvent& e) {
    if (failed_) {
        report();
        return;
    }
    if (e.kind != EventKind::Step && e.kind != EventKind::EpochEnd) return;
    const double now = wall_clock_seconds();
    for_each_metric_row(e, run_, now, [this](MetricRow r) { writer_.push(std::move(r)); });
    if (e.kind == EventKind::Step) writer_.push({run_, e.step, e.epoch, "train", "lr", e.learning_rate, now});
}

void TensorBoardLogger::finish() {
    try {
        writer_.flush();
    } catch (const Error&) {  // the sink does not throw; its failure is reported below
    }
    if (failed_) report();
}

}  // namespace lf::tensorboard
