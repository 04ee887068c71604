#pragma once
// float32 weights into oneDNN's pair-blocked bfloat16 layouts: the layouts its bf16 convolutions,
// inner products and matmuls ask for (AB8b64a2b, BA16a64b2a, ABcd8a16b2a, ...), where each
// 32-bit word holds two neighbours along the reduction dimension. oneDNN 2.6's reorder into them
// reads the float32 master element by element: 0.65 ms for the tutorial CNN's 3.2 million Dense
// weights on two threads, twice a step (forward and backward-data copies), more than the bf16
// inner product it feeds, and 1.7 ms for the backward-data matmul's transposed BA16a64b2a. Here
// each block is written whole, its pairs rounded along the source's contiguous dimension and,
// for the transposed kind, turned in AVX-512 registers: 0.23 and 0.29 ms (3x and 5.7x, same
// machine, two threads), rounded by the AVX512-BF16 instruction where the CPU has it
// (bf16_avx512.h; else the portable loops). Any other layout is left to oneDNN's reorder (plan() says no).
#include <cstddef>
#include <cstdint>
#include <optional>

#include <oneapi/dnnl/dnnl.hpp>

namespace lf {

class PairBlockedCopy {
public:
    static constexpr std::int64_t kMaxBlockWords = 4096;  // x * y: the blocks oneDNN asks for hold up to 1024

    // A copy from `from` (float32, plain strides) into `to` (bfloat16, outer blocks with the inner
    // blocks {X of p, Y of q, 2 of p}), or nothing when the layouts are not of that kind.
    // avx512: the AVX512-BF16 loops where the CPU has them (false: the portable loops, for tests).
    static std::optional<PairBlockedCopy> plan(const dnnl::memory::desc& from, const dnnl::memory::desc& to,
                                               bool avx512 = true);

    // Writes every element of `to` that holds a value; the padding of edge blocks is left as it
    // is (zero it once).
    void run(const float* src, std::uint16_t* dst) const;

    // The copy in bands of the source's outermost dimension, for a caller that has just written
    // those rows and copies them while they are in cache (CpuPlan's optimizer update): rows of
    // row_floats() floats each, cut at multiples of band_rows(). band_rows() is 0 when the
    // source is not one dense array.
    std::int64_t band_rows() const { return band_dim_ < 0 ? 0 : block_len_[band_dim_]; }
    std::int64_t rows() const { return band_dim_ < 0 ? 0 : dims_[band_dim_]; }
    std::int64_t row_floats() const { return band_dim_ < 0 ? 0 : src_stride_[band_dim_]; }
    // The blocks of rows [begin, end), on the calling thread: begin a multiple of band_rows(),
    // end too or rows().
    void run_rows(const float* src, std::uint16_t* dst, std::int64_t begin, std::int64_t end) const;

private:
    static constexpr int kMaxDims = 6;
    void write_block(const std::int64_t index[], const float* src, std::uint16_t* dst) const;  // block indices per dim

    int ndims_ = 0, p_ = 0, q_ = 0;
    std::int64_t x_ = 0, y_ = 0;                                     // the inner blocks {x_ of p, y_ of q, 2 of p}
    std::int64_t dims_[kMaxDims]{}, blocks_[kMaxDims]{};             // logical sizes; blocks along each
    std::int64_t block_len_[kMaxDims]{};                             // elements of a dim per block (2x, y or 1)
    std::int64_t src_stride_[kMaxDims]{}, dst_stride_[kMaxDims]{};  // per element / per block
    std::int64_t dst_offset0_ = 0, total_blocks_ = 0;
    bool q_contiguous_ = false;  // the source runs along q (pairs from two rows) or along p (pairs adjacent)
    bool fast_ = false;          // the AVX512-BF16 loops: both kinds, the transposing one for x_ == 16
    int band_dim_ = -1;          // the source's outermost dimension, when the source is dense
};

}  // namespace lf
