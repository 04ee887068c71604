#include "layerforge/tensorboard/log_folder.h"

#include <algorithm>
#include <filesystem>

#include "layerforge/core/error.h"

namespace lf::tensorboard {

namespace fs = std::filesystem;

namespace {

bool is_keras_part(const std::string& folder_name) { return folder_name == "train" || folder_name == "validation"; }

// Reads one part's files in order into `series`.
void read_part(const std::vector<fs::path>& files, TagSeries& series, std::vector<Damage>& damage) {
    for (const fs::path& f : files) {
        std::optional<Damage> d;
        try {
            d = read_event_file(f.string(), [&](const Event& e) {
                if (e.session_status == SessionStatus::Start)  // a restart: what it redoes is dropped
                    for (auto& [tag, points] : series)
                        std::erase_if(points, [&](const ScalarPoint& p) { return p.step >= e.step; });
                for (const Scalar& s : e.scalars) series[s.tag].push_back({e.step, e.wall_time, s.value});
            });
        } catch (const Error& e) {  // unreadable: empty, not a regular file
            d = Damage{f.string(), 0, e.what()};
        }
        if (d) damage.push_back(*d);
    }
}

}  // namespace

std::size_t LogRun::points() const {
    std::size_t n = 0;
    for (const auto& [part, series] : parts)
        for (const auto& [tag, points] : series) n += points.size();
    return n;
}

LogFolder read_log_folder(const std::string& folder) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw input_error(folder + ": no such folder (give the TensorBoard log folder, the one passed to --logdir)");
    const fs::path root = fs::weakly_canonical(fs::absolute(folder));
    // run folder -> part -> its event files
    std::map<fs::path, std::map<std::string, std::vector<fs::path>>> found;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!is_event_file_name(it->path().filename().string()) || it->is_directory(ec)) continue;
        const fs::path dir = it->path().parent_path();
        const bool part = dir != root && is_keras_part(dir.filename().string());
        found[part ? dir.parent_path() : dir][part ? dir.filename().string() : ""].push_back(it->path());
    }
    if (ec) throw input_error(folder + ": cannot list the folder: " + ec.message());
    LogFolder out;
    for (auto& [dir, parts] : found) {
        LogRun run;
        run.path = dir.string();
        run.name = dir == root ? root.filename().string() : fs::relative(dir, root).string();
        for (auto& [part, files] : parts) {
            std::sort(files.begin(), files.end());
            read_part(files, run.parts[part], out.damage);
        }
        out.runs.push_back(std::move(run));
    }
    return out;
}

}  // namespace lf::tensorboard
