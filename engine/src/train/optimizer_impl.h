#pragma once
// Shared base for the optimizers: named state buffers sized by bind(); factory hooks.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/core/memory.h"
#include "layerforge/train/optimizer.h"
#include "train/param_reader.h"

// Hot element-wise loops get AVX2/AVX-512 clones on x86-64 (GCC/Clang function multi-versioning).
// Not in sanitizer builds: the clones' ifunc resolver runs during relocation, before the
// sanitizer runtime is up, and its instrumented entry crashes (TSan) or is reported (ASan).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define LF_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define LF_VECTOR_CLONES
#endif

namespace lf::train_detail {

class BufferedOptimizer : public Optimizer {
public:
    void bind(std::size_t n) override;
    std::vector<std::pair<std::string, std::vector<float>*>> state() override;

protected:
    // Registers a zero-initialised state buffer; returns its index for buffer().
    std::size_t add_buffer(std::string name);
    float* buffer(std::size_t index) { return buffers_[index].second.data(); }
    // Throws lf::runtime_error unless bind(m) with m >= n came first, so step() never writes out of bounds.
    void check_bound(std::size_t n) const;

private:
    std::vector<std::pair<std::string, std::vector<float>>> buffers_;
    std::size_t bound_ = 0;
    bool is_bound_ = false;
    MemoryLease lease_;  // the state buffers
};

std::unique_ptr<Optimizer> make_sgd(const Params& params);
std::unique_ptr<Optimizer> make_adam(const std::string& type, const Params& params);  // Adam, AdamW
std::unique_ptr<Optimizer> make_rmsprop(const Params& params);

}  // namespace lf::train_detail
