// The run store opening a damaged database file: open without creating, then every read the
// studio's run and checkpoint browsers make.
#include <cstdio>

#include "fuzz_target.h"
#include "layerforge/store/run_store.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = lf::fuzz::write_temp("store.lfruns", data, size);
    for (const char* suffix : {"-wal", "-shm"}) std::remove((path + suffix).c_str());
    try {
        lf::RunStore store(path, false, 0);
        store.integrity_check();
        for (const lf::RunInfo& r : store.runs()) {
            store.metrics(r.id);
            store.run(r.id);
        }
        for (const lf::CheckpointInfo& c : store.checkpoints()) {
            try {
                store.checkpoint_blob(c.id);
            } catch (const lf::Error&) {
            }
        }
        store.resolve("latest");
    } catch (const lf::Error&) {
    }
    return 0;
}
