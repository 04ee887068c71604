#pragma once
// NVML, the driver's management library, loaded at run time: GPU utilisation and the driver's
// version string. It ships with the driver, so without one it is absent, which is not an error.
#include <optional>
#include <string>

namespace lf {

class Nvml {
public:
    static const Nvml& instance();  // loads libnvidia-ml.so.1 once
    bool present() const { return present_; }
    std::string driver_version() const;  // "580.65.06"; "" when NVML is absent
    // Percent of the last sample period the device was busy, by PCI bus id; nullopt when unknown.
    std::optional<int> utilization(const std::string& pci_bus_id) const;

private:
    Nvml();
    bool present_ = false;
    void* lib_ = nullptr;
};

}  // namespace lf
