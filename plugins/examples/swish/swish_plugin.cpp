// Swish (Ramachandran et al. 2017) as a layer: y = x * sigmoid(beta * x) over the last axis's
// channels. With learn_beta, beta is one trainable weight per channel (initialised to 1, which
// is tf.keras's swish); the network can then slide each channel between linear (beta -> 0) and
// ReLU-like (large beta). Without it, beta is the constant 1.
#include <QObject>

#include <algorithm>
#include <cmath>
#include <memory>

#include "layerforge/plugin.h"

namespace {

class SwishKernel : public lf::LayerKernel {
public:
    explicit SwishKernel(const lf::KernelSetup& s)
        : s_(s), channels_(s.output.rank() ? s.output[s.output.rank() - 1] : 1),
          count_(s.batch * s.output.elements()) {}

    void forward() override {
        for (std::int64_t i = 0; i < count_; ++i) {
            const float x = s_.in[0][i];
            s_.out[i] = x * sigmoid(beta(i) * x);
        }
    }

    // dy/dx = s + beta x s (1 - s) and dy/dbeta = x^2 s (1 - s), with s = sigmoid(beta x).
    void backward() override {
        float* dbeta = s_.w_grad.empty() ? nullptr : s_.w_grad[0];
        if (dbeta) std::fill(dbeta, dbeta + channels_, 0.f);
        float* dx = s_.in_grad[0];
        for (std::int64_t i = 0; i < count_; ++i) {
            const float x = s_.in[0][i], b = beta(i), s = sigmoid(b * x), g = s_.out_grad[i];
            const float slope = s * (1 - s);
            if (dx) dx[i] = g * (s + b * x * slope);
            if (dbeta) dbeta[i % channels_] += g * x * x * slope;
        }
    }

private:
    static float sigmoid(float v) { return 1.f / (1.f + std::exp(-v)); }
    float beta(std::int64_t i) const { return s_.w.empty() ? 1.f : s_.w[0][i % channels_]; }

    lf::KernelSetup s_;
    std::int64_t channels_, count_;
};

lf::PluginLayer swish_layer() {
    lf::LayerSpec s;
    s.type = "Swish";
    s.category = "Extra activations";
    s.help = "x * sigmoid(beta * x); beta learned per channel (learn_beta) or fixed at 1.";
    s.params = {{.name = "learn_beta", .kind = lf::ParamKind::Bool, .def = true,
                 .help = "learn one beta per channel of the last axis (starts at 1)"}};
    s.infer = [](const lf::Params& p, const std::vector<lf::Shape>& in) {
        lf::LayerInfo info;
        info.output = in[0];
        const std::int64_t channels = in[0].rank() ? in[0][in[0].rank() - 1] : 1;
        if (lf::param_bool(p, "learn_beta")) info.weights = {{"beta", lf::Shape{channels}, lf::Init::Ones, 1, 1}};
        info.flops = 6 * in[0].elements();
        return info;
    };
    return {s, [](const lf::KernelSetup& setup) { return std::make_unique<SwishKernel>(setup); }};
}

}  // namespace

class SwishPlugin : public QObject, public lf::Plugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID LF_PLUGIN_IID FILE "plugin.json")
    Q_INTERFACES(lf::Plugin)

public:
    void registerInto(lf::PluginRegistrar& r) override { r.add_layer(swish_layer()); }
};

#include "swish_plugin.moc"
