#pragma once
// A compute device as a backend reports it, and what its memory holds, for the training panel's
// device list and the memory gauges. Reading is cheap (a few small /proc files on the CPU) and
// never blocks on the engine, so the studio can poll it from a timer on the GUI thread.
// list_devices() and device_memory() (layerforge/devices/devices.h) ask the registered backends.
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct DeviceInfo {
    std::string id;    // "cpu", "cuda:0", ... (CUDA_VISIBLE_DEVICES numbering)
    std::string kind;  // "cpu" | "cuda"
    std::string name;  // "AMD EPYC 7B13 (2 threads)"
    std::uint64_t total_memory = 0;  // bytes
    // GPUs only ("" on the CPU): "9.0", and the driver as NVML names it ("580.65.06") or, without
    // NVML, the CUDA version the driver supports ("CUDA 13.0").
    std::string compute_capability;
    std::string driver;
};

struct DeviceList {
    std::vector<DeviceInfo> devices;  // the CPU first
    // Why no GPU is offered ("no CUDA backend in this build"); empty when one is.
    std::string gpu_unavailable;
};

struct DeviceMemory {
    std::uint64_t process = 0;      // this process: resident set (CPU) or its allocations (GPU)
    std::uint64_t used = 0;         // every process together (total - available)
    std::uint64_t total = 0;
    std::uint64_t engine = 0;       // bytes the engine's models, plans and optimizers hold now
    std::uint64_t engine_peak = 0;  // their highest total so far
    int utilization = -1;           // percent busy (GPU, through NVML); -1 when unknown
};

}  // namespace lf
