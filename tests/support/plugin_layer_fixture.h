#pragma once
// A plugin layer type registered from a test, as a plugin would: y = x with a CPU kernel and
// no other backend's, so a test can check how a backend treats a layer it has no op for.
#include <algorithm>
#include <memory>
#include <string>

#include "layerforge/plugins/registrar.h"

namespace test_plugins {

class IdentityKernel : public lf::LayerKernel {
public:
    explicit IdentityKernel(const lf::KernelSetup& s) : s_(s), n_(s.batch * s.output.elements()) {}
    void forward() override { std::copy(s_.in[0], s_.in[0] + n_, s_.out); }
    void backward() override {
        if (s_.in_grad[0]) std::copy(s_.out_grad, s_.out_grad + n_, s_.in_grad[0]);
    }

private:
    lf::KernelSetup s_;
    std::int64_t n_;
};

// Registers `type` (once per process) under the plugin "test-plugins".
inline void register_identity_layer(const std::string& type) {
    if (lf::LayerRegistry::instance().find(type)) return;
    lf::LayerSpec s;
    s.type = type;
    s.category = "Test plugin";
    s.infer = [](const lf::Params&, const std::vector<lf::Shape>& in) { return lf::LayerInfo{.output = in[0]}; };
    lf::PluginRegistrar r("test-plugins");
    r.add_layer({s, [](const lf::KernelSetup& k) { return std::make_unique<IdentityKernel>(k); }});
    r.commit();
}

}  // namespace test_plugins
