// layerforge-cli devices: the devices a run can use (tf.config.list_physical_devices), with each
// GPU's memory, compute capability and driver, and why no GPU is offered when there is none.
#include "command.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/memory_budget.h"

namespace lf::cli {

namespace {

Json device_json(const DeviceInfo& d, const DeviceMemory& m) {
    Json j = {{"id", d.id}, {"kind", d.kind}, {"name", d.name}, {"total_memory", d.total_memory},
              {"used_memory", m.used}, {"process_memory", m.process}};
    if (!d.compute_capability.empty()) j["compute_capability"] = d.compute_capability;
    if (!d.driver.empty()) j["driver"] = d.driver;
    if (m.utilization >= 0) j["utilization"] = m.utilization;
    return j;
}

std::string device_line(const DeviceInfo& d, const DeviceMemory& m) {
    std::string s = d.id + "  " + d.name + ", " + megabytes(d.total_memory) + " (" + megabytes(m.used) + " in use)";
    if (!d.compute_capability.empty()) s += ", compute capability " + d.compute_capability;
    if (!d.driver.empty()) s += ", driver " + d.driver;
    if (m.utilization >= 0) s += ", " + std::to_string(m.utilization) + "% busy";
    return s;
}

int run_devices(const Args&, const Reporter& out) {
    const DeviceList list = list_devices();
    Json all = Json::array();
    for (const DeviceInfo& d : list.devices) {
        const DeviceMemory m = device_memory(d.id);
        out.line(device_line(d, m));
        all.push_back(device_json(d, m));
    }
    if (!list.gpu_unavailable.empty()) out.line("no GPU: " + list.gpu_unavailable);
    Json result = {{"event", "result"}, {"devices", all}};
    if (!list.gpu_unavailable.empty()) result["gpu_unavailable"] = list.gpu_unavailable;
    out.object(result);
    return 0;
}

}  // namespace

Command devices_command() {
    return {{"devices", "devices [--json]",
             "Lists the devices training can use: the CPU and each visible GPU (CUDA_VISIBLE_DEVICES applies), or why\n"
             "no GPU is offered.",
             {kJsonOption}},
            run_devices};
}

}  // namespace lf::cli
