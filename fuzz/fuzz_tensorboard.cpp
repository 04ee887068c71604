// TensorBoard event files: the input as one run's train/ event file, read as a log folder
// (TFRecord framing, CRC-32C, the Event protobuf, SessionLog START purges), then mapped to the
// run store's metric rows as runs import-tensorboard does.
#include <filesystem>

#include "fuzz_target.h"
#include "layerforge/tensorboard/log_folder.h"
#include "layerforge/tensorboard/metric_tags.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace fs = std::filesystem;
    // The event file inside RUN/train/, beside write_temp's own file of this process.
    const fs::path scratch = lf::fuzz::write_temp("tensorboard", data, size);
    const fs::path logs = scratch.string() + ".logs", train = logs / "run" / "train";
    fs::create_directories(train);
    fs::copy_file(scratch, train / "events.out.tfevents.1.fuzz.1.0", fs::copy_options::overwrite_existing);
    try {
        lf::tensorboard::read_event_bytes(lf::fuzz::text(data, size), "input", [](const lf::tensorboard::Event&) {});
        const lf::tensorboard::LogFolder folder = lf::tensorboard::read_log_folder(logs.string());
        for (const lf::tensorboard::LogRun& run : folder.runs) lf::tensorboard::rows_from_log(run, 1);
        for (const lf::tensorboard::Damage& d : folder.damage) (void)d.text();
    } catch (const lf::Error&) {
    }
    return 0;
}
