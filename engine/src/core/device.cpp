// The CPU device read from /proc: model name and thread count, MemTotal / MemAvailable, and
// the process's resident pages. GPUs come from a CUDA backend, which this build does not have.
#include "layerforge/core/device.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "layerforge/core/error.h"
#include "layerforge/graph/memory.h"

namespace lf {

namespace {

// "MemTotal:  16314412 kB" -> bytes; 0 when the key is missing.
std::uint64_t meminfo_bytes(const std::string& key) {
    std::ifstream in("/proc/meminfo");
    std::string name, unit;
    std::uint64_t kb = 0;
    while (in >> name >> kb) {
        std::getline(in, unit);
        if (name == key + ":") return kb * 1024;
    }
    return 0;
}

std::string cpu_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, name = "CPU";
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) name = line.substr(line.find_first_not_of(' ', colon + 1));
            break;
        }
    return name + " (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads)";
}

std::uint64_t resident_bytes() {
    std::ifstream in("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    in >> size >> resident;
    return resident * std::uint64_t(sysconf(_SC_PAGESIZE));
}

}  // namespace

DeviceList list_devices() {
    DeviceList list;
    list.devices.push_back({"cpu", "cpu", cpu_name(), meminfo_bytes("MemTotal")});
    list.gpu_unavailable = "no CUDA backend in this build";
    return list;
}

DeviceMemory device_memory(const std::string& device) {
    if (device != "cpu") throw input_error("device '" + device + "' is not available: only the CPU is (no CUDA backend in this build)");
    DeviceMemory m;
    m.total = meminfo_bytes("MemTotal");
    const std::uint64_t available = meminfo_bytes("MemAvailable");
    m.used = m.total > available ? m.total - available : 0;
    m.process = resident_bytes();
    m.engine = memory_in_use(device).total();
    m.engine_peak = memory_peak(device).total();
    return m;
}

}  // namespace lf
