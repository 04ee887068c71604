// The CPU backend. Its device is the host, so a model's weights and gradients stay in the host
// Model's own arrays (no copy: push and pull have nothing to do), and plans are CpuPlans over
// them. The device is read from /proc: model name and thread count, MemTotal / MemAvailable,
// and the process's resident pages.
#include "backend/cpu/cpu_backend.h"

#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include <oneapi/dnnl/dnnl.h>

#include "backend/cpu/cpu_plan.h"
#include "layerforge/core/error.h"
#include "layerforge/core/memory.h"

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

const char* isa_name(dnnl_cpu_isa_t isa) {
    switch (isa) {
    case dnnl_cpu_isa_sse41: return "sse41";
    case dnnl_cpu_isa_avx: return "avx";
    case dnnl_cpu_isa_avx2: return "avx2";
    case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
    case dnnl_cpu_isa_avx512_mic: return "avx512_mic";
    case dnnl_cpu_isa_avx512_mic_4ops: return "avx512_mic_4ops";
    case dnnl_cpu_isa_avx512_core: return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
    default: return "unknown";
    }
}

class CpuDeviceModel final : public DeviceModel {
public:
    explicit CpuDeviceModel(Model& m) : DeviceModel(m, "cpu") {}

    std::unique_ptr<Plan> make_plan(const PlanOptions& o) override {
        if (o.device != device()) throw runtime_error("a plan for '" + o.device + "' from the CPU's model");
        return std::make_unique<CpuPlan>(model(), o, WeightMemory{model().weights().data(), model().grads().data()});
    }
    void push_weights() override {}  // the plans read the host arrays
    void pull_weights() override {}
    void pull_grads() override {}
    void update(WeightUpdate& rule, double lr) override {
        rule.step(model().weights().data(), model().grads().data(), model().trainable_size(), lr);
    }
};

class CpuBackend final : public Backend {
public:
    std::string name() const override { return "cpu"; }
    std::string library() const override {
        const dnnl_version_t* v = dnnl_version();
        return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    }
    std::vector<DeviceInfo> devices() const override { return {{"cpu", "cpu", cpu_name(), meminfo_bytes("MemTotal")}}; }
    bool has_device(const std::string& device) const override { return device == "cpu"; }

    DeviceMemory memory(const std::string& device) const override {
        if (!has_device(device)) throw input_error("the CPU backend has no device '" + device + "'");
        DeviceMemory m;
        m.total = meminfo_bytes("MemTotal");
        const std::uint64_t available = meminfo_bytes("MemAvailable");
        m.used = m.total > available ? m.total - available : 0;
        m.process = resident_bytes();
        m.engine = memory_in_use(device).total();
        m.engine_peak = memory_peak(device).total();
        return m;
    }

    // oneDNN emulates bfloat16 on AVX-512 below avx512_core_bf16, 3-4x slower than float32, and
    // has no bfloat16 kernels below AVX-512: refused on both.
    std::string precision_unsupported(Precision precision, const std::string& device) const override {
        if (!has_device(device)) return "the CPU backend has no device '" + device + "'";
        if (precision == Precision::MixedFloat16) return cpu_float16_refusal();
        if (precision != Precision::MixedBFloat16) return "";
        if (cpu_isa_reaches(dnnl_cpu_isa_avx512_core_bf16)) return "";
        return "this CPU has no bfloat16 instructions (oneDNN's effective ISA is " +
               std::string(isa_name(dnnl_get_effective_cpu_isa())) + ", below avx512_core_bf16): " +
               (cpu_isa_reaches(dnnl_cpu_isa_avx512_core) ? "mixed_bfloat16 would be emulated, slower than float32"
                                              : "oneDNN has no bfloat16 kernels for it");
    }

    std::string unsupported(const NodeInfo&) const override { return ""; }  // every layer runs here

    std::unique_ptr<DeviceModel> load(Model& model, const std::string& device) override {
        if (!has_device(device)) throw input_error("the CPU backend has no device '" + device + "'");
        return std::make_unique<CpuDeviceModel>(model);
    }

    MemoryBreakdown estimate(const Model& model, const PlanOptions& options) const override {
        return CpuPlan::estimate(model, options);
    }
    PlanProfile describe(const Model& model, const PlanOptions& options) const override {
        return CpuPlan::describe(model, options);
    }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

bool cpu_isa_reaches(dnnl_cpu_isa_t level) {
    return (unsigned(dnnl_get_effective_cpu_isa()) & unsigned(level)) == unsigned(level);
}

std::string cpu_float16_refusal() {
    return "the CPU backend has no float16 kernels (float16 arithmetic would be emulated, slower than float32): "
           "mixed_float16 is for GPUs; mixed_bfloat16 is the CPU's mixed policy";
}

}  // namespace lf
