// The tutorial's LinearLayer(units): y = x @ w + b with w (in, units) and b (units), both
// zero-initialised as in its build(). Plain loops: a teaching example, not a fast Dense.
#include <algorithm>
#include <memory>

#include "layerforge/core/error.h"
#include "tutorial.h"

namespace tutorial {

namespace {

class LinearKernel : public lf::LayerKernel {
public:
    explicit LinearKernel(const lf::KernelSetup& s)
        : s_(s), n_(s.batch), k_(s.inputs[0].elements()), m_(lf::param_int(s.params, "units")) {}

    void forward() override {
        const float *x = s_.in[0], *w = s_.w[0], *b = s_.w[1];
        for (std::int64_t i = 0; i < n_; ++i) {
            float* y = s_.out + i * m_;
            for (std::int64_t j = 0; j < m_; ++j) y[j] = b[j];
            for (std::int64_t p = 0; p < k_; ++p) {
                const float xv = x[i * k_ + p];
                for (std::int64_t j = 0; j < m_; ++j) y[j] += xv * w[p * m_ + j];
            }
        }
    }

    void backward() override {
        const float *x = s_.in[0], *w = s_.w[0], *dy = s_.out_grad;
        float *dw = s_.w_grad[0], *db = s_.w_grad[1], *dx = s_.in_grad[0];
        std::fill(dw, dw + k_ * m_, 0.f);
        std::fill(db, db + m_, 0.f);
        for (std::int64_t i = 0; i < n_; ++i) {
            const float* g = dy + i * m_;
            for (std::int64_t j = 0; j < m_; ++j) db[j] += g[j];
            for (std::int64_t p = 0; p < k_; ++p) {
                const float xv = x[i * k_ + p];
                float acc = 0;
                for (std::int64_t j = 0; j < m_; ++j) {
                    dw[p * m_ + j] += xv * g[j];
                    acc += w[p * m_ + j] * g[j];
                }
                if (dx) dx[i * k_ + p] = acc;
            }
        }
    }

private:
    lf::KernelSetup s_;
    std::int64_t n_, k_, m_;
};

}  // namespace

lf::PluginLayer linear_layer() {
    lf::LayerSpec s;
    s.type = "LinearLayer";
    s.category = "Tutorial";
    s.help = "The tutorial's custom layer: y = x @ w + b, weights initialised to zero.";
    s.params = {{.name = "units", .kind = lf::ParamKind::Int, .def = std::int64_t(1), .min = 1, .max = 1 << 20,
                 .help = "number of output units", .required = true}};
    s.infer = [](const lf::Params& p, const std::vector<lf::Shape>& in) {
        if (in[0].rank() != 1)
            throw lf::input_error("LinearLayer expects 2-D input, got " + in[0].str() + ": add Flatten");
        const std::int64_t k = in[0][0], units = lf::param_int(p, "units");
        lf::LayerInfo info;
        info.output = lf::Shape{units};
        info.weights = {{"w", lf::Shape{k, units}, lf::Init::Zeros, k, units},
                        {"b", lf::Shape{units}, lf::Init::Zeros, k, units}};
        info.flops = 2 * k * units;
        return info;
    };
    return {s, [](const lf::KernelSetup& setup) { return std::make_unique<LinearKernel>(setup); }};
}

}  // namespace tutorial
