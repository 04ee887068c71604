#pragma once
// What the mixed_bfloat16 suites share. CPUs differ between build machines: some have
// avx512_bf16 (the policy runs), some have AVX-512 without it or only AVX2 (oneDNN would
// emulate bfloat16, so the policy is refused). A suite that trains in bfloat16 calls
// skip_suite_without_bf16() from its initMain(): where the policy is refused it prints the
// backend's reason and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE), never
// passed. The refusal itself is checked on every machine by the registrations that cap
// oneDNN's ISA below bfloat16 (DNNL_MAX_CPU_ISA, tests/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "layerforge/devices/devices.h"

namespace lf_test {

// The ISA cap the no-bfloat16 registrations set: AVX-512 with VNNI, just below bfloat16, where
// oneDNN would emulate it; and AVX2, where oneDNN has no bfloat16 kernel at all.
inline const std::string kNoBf16Cap = "AVX512_CORE_VNNI";
inline const std::string kNoBf16KernelsCap = "AVX2";

inline bool cpu_flag(const std::string& flag) {
    std::ifstream in("/proc/cpuinfo");
    std::string word;
    while (in >> word)
        if (word == flag) return true;
    return false;
}

// The no-bfloat16 cap this process runs under, or empty.
inline std::string bf16_cap() {
    const char* isa = std::getenv("DNNL_MAX_CPU_ISA");
    return isa && (kNoBf16Cap == isa || kNoBf16KernelsCap == isa) ? isa : "";
}
inline bool bf16_capped() { return !bf16_cap().empty(); }

// The ISA name a refusal under the cap names: the cap itself where the CPU reaches it (oneDNN
// never goes above what the CPU has), else empty (the CPU's own lower ISA, e.g. avx2).
inline std::string capped_isa_name() {
    if (bf16_cap() == kNoBf16KernelsCap) return cpu_flag("avx2") ? "avx2" : "";
    return cpu_flag("avx512_vnni") ? "avx512_core_vnni" : "";
}

// The refusal's fixed parts, and the capped ISA's name where the CPU reaches the cap.
inline bool names_the_missing_bf16(const std::string& reason) {
    const std::string isa = capped_isa_name();
    return reason.find("no bfloat16 instructions") != std::string::npos &&
           reason.find("below avx512_core_bf16") != std::string::npos &&
           (isa.empty() || reason.find(isa) != std::string::npos);
}

inline void skip_suite_without_bf16() {
    if (bf16_capped()) return;  // a registration that checks the refusal
    const std::string reason = lf::precision_unsupported(lf::Precision::MixedBFloat16, "cpu");
    if (reason.empty()) return;
    std::printf("SKIP   : mixed_bfloat16 is refused on this machine: %s\n", reason.c_str());
    std::fflush(stdout);
    std::exit(77);
}

}  // namespace lf_test
