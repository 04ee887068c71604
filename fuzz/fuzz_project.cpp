// The project-file loader (parse_project) and the graph validator (analyze) on arbitrary bytes.
#include "fuzz_target.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/project/project.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        lf::Project p = lf::parse_project(lf::fuzz::text(data, size), "fuzz.lfproj");
        lf::analyze(p.graph);
        lf::parse_project(lf::serialize_project(p), "round-trip.lfproj");  // what we write we can read
    } catch (const lf::Error&) {
    }
    return 0;
}
