#pragma once
// A TensorBoard log folder read back: every folder in the tree holding event files is a
// TensorBoard run; Keras' layout (RUN/train and RUN/validation beside each other) is one run,
// RUN, with the two as its parts. Within a part, the event files are read in name order (their
// names begin with the time) and a SessionLog START at step S drops the points logged at S and
// after it earlier, as TensorBoard does for a resumed run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layerforge/tensorboard/event_file.h"

namespace lf::tensorboard {

struct ScalarPoint {
    std::int64_t step = 0;
    double wall_time = 0;
    double value = 0;
};

using TagSeries = std::map<std::string, std::vector<ScalarPoint>>;  // tag -> points in file order

struct LogRun {
    std::string name;  // the run folder relative to the log folder (its own name when it holds the files)
    std::string path;  // absolute
    // "" for event files in the run folder itself; "train" and "validation" in Keras' layout.
    std::map<std::string, TagSeries> parts;
    std::size_t points() const;
};

struct LogFolder {
    std::vector<LogRun> runs;  // sorted by name
    std::vector<Damage> damage;  // files read only partly, or not at all
};

// Throws lf::Error (Input) naming the folder when it does not exist or is no folder.
LogFolder read_log_folder(const std::string& folder);

}  // namespace lf::tensorboard
