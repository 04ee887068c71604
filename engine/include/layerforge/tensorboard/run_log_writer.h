#pragma once
// Writes one Layerforge run as a TensorBoard run folder: RUN/train and RUN/validation, one new
// event file in each part the run has scalars for (metric_tags.h says which), opened when the
// first scalar for it comes.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/event_file.h"

namespace lf::tensorboard {

class RunLogWriter {
public:
    // `resumed_at`: the step a resumed run continues after; every part's file then begins with a
    // SessionLog START at the step after it, so TensorBoard drops what the interrupted run
    // logged past its checkpoint and keeps the checkpoint's own step.
    explicit RunLogWriter(std::string run_folder, std::optional<std::int64_t> resumed_at = std::nullopt);

    const std::string& folder() const { return folder_; }
    // Throw lf::Error (Runtime) naming the folder or file when it cannot be created or written.
    void add(const MetricRow& row);
    void flush();
    std::vector<std::string> files() const;

private:
    EventFileWriter& part(const std::string& name);

    std::string folder_;
    std::optional<std::int64_t> resumed_at_;
    std::map<std::string, std::unique_ptr<EventFileWriter>> parts_;
};

// A folder name for a run: its name with characters that are unsafe in file names replaced,
// then "-<id>" ("mnist-3"), so runs that share a name stay apart.
std::string run_folder_name(const std::string& run_name, std::int64_t run_id);

}  // namespace lf::tensorboard
