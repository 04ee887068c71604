// The CUDA backend: devices as the module reports them (cudaGetDeviceProperties, once at
// start-up: they do not change while the process runs), memory from the device's arena, the
// engine's account and cudaMemGetInfo, utilisation from NVML when the driver has it.
#include "backend/cuda/cuda_backend.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_device_model.h"
#include "backend/cuda/cuda_runtime_memory.h"
#include "backend/cuda/nvml.h"
#include "backend/cuda/cuda_ops.h"
#include "backend/cuda/cuda_plan.h"
#include "layerforge/core/error.h"
#include "layerforge/core/memory.h"
#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

struct CudaDevice {
    DeviceInfo info;
    std::string pci_bus_id;
    int cc = 0;  // compute capability x 10
    std::unique_ptr<CudaRawMemory> raw;
    std::unique_ptr<DeviceArena> arena;
    std::shared_ptr<CudaContext> context;  // made on the first load
};

std::string library_text(const lf_cuda_api& api) {
    const int b = api.cublas_version, d = api.cudnn_version;
    return "CUDA " + cuda_version_text(api.runtime_version) + ", cuBLAS " + std::to_string(b / 10000) + "." +
           std::to_string(b / 100 % 100) + "." + std::to_string(b % 100) + ", cuDNN " + std::to_string(d / 10000) +
           "." + std::to_string(d / 100 % 100) + "." + std::to_string(d % 100);
}

class CudaBackend final : public Backend {
public:
    CudaBackend(std::shared_ptr<const CudaModule> module, int count) : module_(std::move(module)) {
        const lf_cuda_api& api = *module_->api;
        int driver = 0;
        api.driver_version(&driver, nullptr);
        const std::string nvml_driver = Nvml::instance().driver_version();
        const std::string driver_text = nvml_driver.empty() ? "CUDA " + cuda_version_text(driver) : nvml_driver;
        for (int i = 0; i < count; ++i) {
            lf_cuda_device_props p{};
            lf_cuda_error e{};
            const std::string id = "cuda:" + std::to_string(i);
            cuda_check(api.device_props(i, &p, &e), e, "reading the device's properties", id);
            CudaDevice d;
            d.info = {id, "cuda", p.name, p.total_memory, std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor),
                      driver_text};
            d.pci_bus_id = p.pci_bus_id;
            d.cc = p.cc_major * 10 + p.cc_minor;
            d.raw = std::make_unique<CudaRawMemory>(api, i);
            d.arena = std::make_unique<DeviceArena>(id, *d.raw);
            devices_.push_back(std::move(d));
        }
    }

    std::string name() const override { return "cuda"; }
    std::string library() const override { return library_text(*module_->api); }

    std::vector<DeviceInfo> devices() const override {
        std::vector<DeviceInfo> out;
        for (const auto& d : devices_) out.push_back(d.info);
        return out;
    }
    bool has_device(const std::string& device) const override {
        const int i = cuda_device_index(device);
        return i >= 0 && std::size_t(i) < devices_.size();
    }

    DeviceMemory memory(const std::string& device) const override {
        const CudaDevice& d = at(device);
        DeviceMemory m;
        std::uint64_t free = 0, total = 0;
        lf_cuda_error e{};
        cuda_check(module_->api->mem_get_info(index(device), &free, &total, &e), e, "reading the memory", device);
        m.total = total;
        m.used = total - std::min(free, total);
        m.process = d.arena->held();
        m.engine = memory_in_use(device).total();
        m.engine_peak = memory_peak(device).total();
        m.utilization = Nvml::instance().utilization(d.pci_bus_id).value_or(-1);
        return m;
    }

    std::string precision_unsupported(Precision precision, const std::string& device) const override {
        if (!has_device(device)) return "the CUDA backend has no device '" + device + "'";
        return cuda_precision_unsupported(precision, at(device).cc);
    }

    std::string unsupported(const NodeInfo& node) const override {
        ScheduledStep step;
        step.node = node.spec ? node.spec->type : "?";
        step.info = &node;
        step.runs = node.spec && node.spec->op != LayerOp::Input && !node.spec->view;
        return cuda_op_unsupported(step);
    }

    std::unique_ptr<DeviceModel> load(Model& model, const std::string& device) override {
        CudaDevice& d = at(device);
        {
            std::lock_guard lock(mutex_);
            if (!d.context) d.context = std::make_shared<CudaContext>(*module_->api, index(device), device);
        }
        return std::make_unique<CudaDeviceModel>(model, device, d.context, *d.arena);
    }

    MemoryBreakdown estimate(const Model& model, const PlanOptions& options) const override {
        return CudaPlan::estimate(model, options);
    }
    PlanProfile describe(const Model& model, const PlanOptions& options) const override {
        return CudaPlan::describe(model, options);
    }
    void synchronize(const std::string& device) override {
        CudaDevice& d = at(device);
        if (!d.context) return;  // nothing was ever queued
        d.context->run([&](lf_cuda_error* e) { return d.context->api().synchronize(d.context->get(), e); },
                       "waiting for the device");
    }

    void set_memory_limit(const std::string& device, std::uint64_t limit_bytes) override {
        at(device).arena->set_policy({limit_bytes});
    }

    DeviceArena& arena(const std::string& device) { return *at(device).arena; }

private:
    int index(const std::string& device) const {
        if (!has_device(device)) throw input_error("the CUDA backend has no device '" + device + "'");
        return cuda_device_index(device);
    }
    const CudaDevice& at(const std::string& device) const { return devices_[std::size_t(index(device))]; }
    CudaDevice& at(const std::string& device) { return devices_[std::size_t(index(device))]; }

    std::shared_ptr<const CudaModule> module_;
    std::vector<CudaDevice> devices_;
    std::mutex mutex_;
};

}  // namespace

std::string cuda_precision_unsupported(Precision precision, int cc) {
    const int needs = precision == Precision::MixedBFloat16 ? 80 : precision == Precision::MixedFloat16 ? 70 : 0;
    if (cc >= needs) return "";
    return "this GPU (compute capability " + std::to_string(cc / 10) + "." + std::to_string(cc % 10) + ") has no " +
           (precision == Precision::MixedBFloat16 ? "bfloat16" : "float16") + " tensor cores (they need " +
           std::to_string(needs / 10) + "." + std::to_string(needs % 10) + ")";
}

int cuda_device_index(const std::string& id) {
    if (id.rfind("cuda:", 0) != 0 || id.size() == 5 || id.size() > 9) return -1;
    int n = 0;
    for (char c : id.substr(5)) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

CudaProbe probe_cuda(const CudaModuleLoad& load, bool (*driver_present)()) {
    if (!load.module) return {nullptr, load.reason};
    if (!driver_present()) return {nullptr, "no CUDA driver: libcuda.so.1 not found (the NVIDIA driver is not installed)"};
    int n = 0;
    lf_cuda_error e{};
    if (load.module->api->device_count(&n, &e)) return {nullptr, std::string("CUDA is not usable: ") + e.text};
    if (n == 0) {
        const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
        return {nullptr, std::string("no CUDA device found") +
                             (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : std::string())};
    }
    try {
        return {std::make_unique<CudaBackend>(load.module, n), ""};
    } catch (const Error& err) {
        return {nullptr, err.what()};
    }
}

CudaProbe probe_cuda() { return probe_cuda(load_cuda_module()); }

DeviceArena& cuda_arena(Backend& backend, const std::string& device) {
    auto* cuda = dynamic_cast<CudaBackend*>(&backend);
    if (!cuda) throw input_error("'" + device + "' is not a CUDA device");
    return cuda->arena(device);
}

}  // namespace lf
