#pragma once
// Recorded runs to TensorBoard log folders and back (runs export-tensorboard / import-tensorboard,
// and the studio's "Import TensorBoard logs…").
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/log_folder.h"

namespace lf::tensorboard {

struct ExportedRun {
    std::int64_t run = 0;
    std::string folder;              // OUT/<name>-<id>
    std::vector<std::string> files;  // one event file per part
    std::size_t points = 0;
};

// Writes the run's recorded metrics as OUT/run_folder_name(...)/{train,validation}/events...
// Throws lf::Error (Input) for an unknown run, or a run folder that already holds event files
// (TensorBoard would show both copies); (Runtime) naming the file when writing fails.
ExportedRun export_run(RunStore& store, std::int64_t run, const std::string& out_dir);

struct ImportedRun {
    std::int64_t run = 0;  // its id in the store
    std::string name, folder;
    std::size_t points = 0;
};

struct ImportResult {
    std::vector<ImportedRun> imported;
    std::vector<std::string> skipped;  // run folders left out, each with the reason
    std::vector<Damage> damage;        // files read only in part (what came before the damage is imported)
};

// Reads every run under `folder` (read_log_folder) into the store as a finished run with
// source "tensorboard:<absolute run folder>", its scalars as metric rows (rows_from_log). A run
// folder already imported (same source) and one with no scalars are skipped, saying so.
// Throws lf::Error (Input) naming the folder when it is missing.
ImportResult import_log_folder(RunStore& store, const std::string& folder);

}  // namespace lf::tensorboard
