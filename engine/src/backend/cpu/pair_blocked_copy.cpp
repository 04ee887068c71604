#include "backend/cpu/pair_blocked_copy.h"

#include <algorithm>
#include <bit>

#include "backend/cpu/bf16_avx512.h"
#include "core/slices.h"
#include "layerforge/core/bfloat16.h"

namespace lf {

namespace {

// The rounding of core/bfloat16.h without its branch, so that the loops below vectorise.
inline std::uint32_t bf16_bits(float x) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    return (u & 0x7fffffffu) > 0x7f800000u ? (u >> 16) | 0x0040u : rounded;
}

// Two neighbours along the reduction dimension in one word: the first at the lower address.
inline std::uint32_t pair(float first, float second) { return bf16_bits(first) | bf16_bits(second) << 16; }

struct Block {
    std::int64_t x, y;       // inner blocks {x of p, y of q, 2 of p}
    std::int64_t sp, sq;     // source strides along p and q
    bool q_contiguous;       // sq == 1: pairs from two source rows; else sp == 1: pairs adjacent
    std::int64_t p_left, q_left;  // the values along p (<= 2x) and q (<= y) this block holds
};

// One block, compiled for AVX-512 too (the CPUs that run bfloat16 kernels have it), chosen when
// the program loads; the build itself targets the baseline x86-64. An edge block reads only the
// values it holds; the words past them stay zero (the buffer was zeroed once), and a lone last
// row along p pairs with 0.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void copy_block(const Block& b, const float* s, std::uint32_t* out) {
    if (b.q_contiguous) {
        for (std::int64_t x = 0; 2 * x < b.p_left; ++x) {
            const float* r0 = s + 2 * x * b.sp;
            const float* r1 = r0 + b.sp;
            std::uint32_t* o = out + x * b.y;
            if (2 * x + 1 < b.p_left)
                for (std::int64_t j = 0; j < b.q_left; ++j) o[j] = pair(r0[j], r1[j]);
            else
                for (std::int64_t j = 0; j < b.q_left; ++j) o[j] = pair(r0[j], 0.f);
        }
        return;
    }
    std::uint32_t rows[PairBlockedCopy::kMaxBlockWords];  // each q row's pairs, then their transpose
    const std::int64_t whole = b.p_left / 2;
    for (std::int64_t j = 0; j < b.y; ++j) {
        std::uint32_t* r = rows + j * b.x;
        std::int64_t done = 0;
        if (j < b.q_left) {
            const float* row = s + j * b.sq;
            for (std::int64_t i = 0; i < whole; ++i) r[i] = pair(row[2 * i], row[2 * i + 1]);
            done = whole;
            if (b.p_left % 2) r[done++] = pair(row[b.p_left - 1], 0.f);
        }
        for (std::int64_t i = done; i < b.x; ++i) r[i] = 0;
    }
    for (std::int64_t x = 0; x < b.x; ++x)
        for (std::int64_t j = 0; j < b.y; ++j) out[x * b.y + j] = rows[j * b.x + x];
}

// The two kinds with the AVX512-BF16 instruction (bf16_avx512.h), where the CPU has it. An
// edge block loads only the floats it holds and the rest round from 0, so the words past them
// stay zero.
#pragma GCC diagnostic push  // GCC 12 warns about the undefined register inside its own AVX-512 intrinsics
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// Pairs from two source rows: each 16 floats of the two round in one instruction, then
// interleave; whole vectors without masks, then the rest of the row (6.7 -> 4.8 us for the MLP's
// 784 x 100 kernel, one thread, against masks throughout).
LF_AVX512_BF16 inline __m512i sixteen_pairs(__m512 first, __m512 second) {
    alignas(64) static constexpr std::uint16_t kInterleave[32] = {0, 16, 1, 17, 2,  18, 3,  19, 4,  20, 5,
                                                                  21, 6, 22, 7, 23, 8,  24, 9,  25, 10, 26,
                                                                  11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
    return _mm512_permutexvar_epi16(_mm512_load_si512(kInterleave), bf16_round32(first, second));
}

LF_AVX512_BF16 void copy_block_rows_bf16(const Block& b, const float* s, std::uint32_t* out) {
    const std::int64_t p_left = b.p_left, sp = b.sp, y = b.y, whole = b.q_left / 16 * 16;
    const __mmask16 rest = __mmask16((1u << (b.q_left - whole)) - 1);
    for (std::int64_t x = 0; 2 * x < p_left; ++x) {
        const float* r0 = s + 2 * x * sp;
        const bool lone = 2 * x + 1 == p_left;  // the last row along p pairs with 0
        const float* r1 = r0 + sp;
        std::uint32_t* o = out + x * y;
        std::int64_t j = 0;
        for (; j < whole; j += 16)
            _mm512_storeu_si512(o + j, sixteen_pairs(_mm512_loadu_ps(r0 + j), lone ? _mm512_setzero_ps() : _mm512_loadu_ps(r1 + j)));
        if (rest)
            _mm512_mask_storeu_epi32(o + j, rest, sixteen_pairs(_mm512_maskz_loadu_ps(rest, r0 + j),
                                                                lone ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(rest, r1 + j)));
    }
}

// The transposing kind for blocks of 16 pairs along p (the backward-data matmul's BA16a64b2a):
// each source row's 32 floats round into one register of 16 pairs, and 16 such registers
// transpose in four shuffle stages (the scalar transpose above moves one word a cycle: 0.6 ms a
// step for the tutorial CNN's Dense).
LF_AVX512_BF16 inline void transpose16(__m512i r[16]) {  // 16 x 16 words
    __m512i a[16], b[16];
    for (int i = 0; i < 16; i += 2) {  // words within 128-bit lanes
        a[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        a[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {  // lane l of b[i + k]: column 4l + k of rows i..i+3
        b[i] = _mm512_unpacklo_epi64(a[i], a[i + 2]);
        b[i + 1] = _mm512_unpackhi_epi64(a[i], a[i + 2]);
        b[i + 2] = _mm512_unpacklo_epi64(a[i + 1], a[i + 3]);
        b[i + 3] = _mm512_unpackhi_epi64(a[i + 1], a[i + 3]);
    }
    for (int k = 0; k < 4; ++k) {  // column 4l + k: lane l of b[k], b[4 + k], b[8 + k], b[12 + k]
        const __m512i c0 = _mm512_shuffle_i32x4(b[k], b[4 + k], 0x44), c1 = _mm512_shuffle_i32x4(b[k], b[4 + k], 0xee);
        const __m512i d0 = _mm512_shuffle_i32x4(b[8 + k], b[12 + k], 0x44),
                      d1 = _mm512_shuffle_i32x4(b[8 + k], b[12 + k], 0xee);
        r[k] = _mm512_shuffle_i32x4(c0, d0, 0x88);
        r[4 + k] = _mm512_shuffle_i32x4(c0, d0, 0xdd);
        r[8 + k] = _mm512_shuffle_i32x4(c1, d1, 0x88);
        r[12 + k] = _mm512_shuffle_i32x4(c1, d1, 0xdd);
    }
}

// The first n floats of p (at most 16; none for n <= 0), the rest read as 0 and nothing past them.
LF_AVX512_BF16 inline __m512 load_first(const float* p, std::int64_t n) {
    return _mm512_maskz_loadu_ps(__mmask16(n >= 16 ? 0xffff : n <= 0 ? 0 : (1u << n) - 1), p);
}

LF_AVX512_BF16 void copy_block_x16(const Block& b, const float* s, std::uint32_t* out) {
    for (std::int64_t j0 = 0; j0 < b.y; j0 += 16) {
        __m512i r[16];
        for (int m = 0; m < 16; ++m) {
            const float* row = s + (j0 + m) * b.sq;
            r[m] = j0 + m < b.q_left ? bf16_round32(load_first(row, b.p_left), load_first(row + 16, b.p_left - 16))
                                     : _mm512_setzero_si512();
        }
        transpose16(r);
        for (int x = 0; x < 16; ++x) _mm512_storeu_si512(out + x * b.y + j0, r[x]);
    }
}

#pragma GCC diagnostic pop

}  // namespace

std::optional<PairBlockedCopy> PairBlockedCopy::plan(const dnnl::memory::desc& from, const dnnl::memory::desc& to,
                                                     bool avx512) {
    const dnnl_memory_desc_t& f = from.data;
    const dnnl_memory_desc_t& t = to.data;
    if (f.data_type != dnnl_f32 || t.data_type != dnnl_bf16) return std::nullopt;
    if (f.format_kind != dnnl_blocked || t.format_kind != dnnl_blocked) return std::nullopt;
    if (f.ndims != t.ndims || f.ndims < 2 || f.ndims > kMaxDims || f.extra.flags || t.extra.flags) return std::nullopt;
    const auto& fb = f.format_desc.blocking;
    const auto& tb = t.format_desc.blocking;
    if (fb.inner_nblks != 0 || tb.inner_nblks != 3 || tb.inner_blks[2] != 2) return std::nullopt;
    if (tb.inner_idxs[0] != tb.inner_idxs[2] || tb.inner_idxs[0] == tb.inner_idxs[1]) return std::nullopt;

    PairBlockedCopy c;
    c.ndims_ = f.ndims;
    c.p_ = tb.inner_idxs[0];
    c.q_ = tb.inner_idxs[1];
    c.x_ = tb.inner_blks[0];
    c.y_ = tb.inner_blks[1];
    c.dst_offset0_ = t.offset0;
    c.total_blocks_ = 1;
    for (int d = 0; d < c.ndims_; ++d) {
        if (f.dims[d] != t.dims[d] || f.padded_dims[d] != f.dims[d] || f.padded_offsets[d] || t.padded_offsets[d])
            return std::nullopt;
        c.dims_[d] = t.dims[d];
        c.block_len_[d] = d == c.p_ ? 2 * c.x_ : d == c.q_ ? c.y_ : 1;
        if (t.padded_dims[d] % c.block_len_[d]) return std::nullopt;
        c.blocks_[d] = t.padded_dims[d] / c.block_len_[d];
        c.src_stride_[d] = fb.strides[d];
        c.dst_stride_[d] = tb.strides[d];
        if (c.dst_stride_[d] % 2) return std::nullopt;  // blocks start on a word
        c.total_blocks_ *= c.blocks_[d];
    }
    if (f.offset0 || c.dst_offset0_ % 2) return std::nullopt;
    if (c.x_ * c.y_ > kMaxBlockWords) return std::nullopt;
    if (c.src_stride_[c.q_] == 1)
        c.q_contiguous_ = true;
    else if (c.src_stride_[c.p_] != 1)
        return std::nullopt;
    c.fast_ = avx512 && cpu_has_avx512_bf16();
    std::int64_t elements = 1;
    for (int d = 0; d < c.ndims_; ++d) elements *= c.dims_[d];
    const int outer = int(std::max_element(c.src_stride_, c.src_stride_ + c.ndims_) - c.src_stride_);
    if (std::int64_t(from.get_size() / sizeof(float)) == elements && c.src_stride_[outer] * c.dims_[outer] == elements)
        c.band_dim_ = outer;
    return c;
}

void PairBlockedCopy::write_block(const std::int64_t index[], const float* src, std::uint16_t* dst) const {
    std::int64_t src_base = 0, dst_base = dst_offset0_, first[kMaxDims]{};
    for (int d = 0; d < ndims_; ++d) {
        first[d] = index[d] * block_len_[d];
        src_base += first[d] * src_stride_[d];
        dst_base += index[d] * dst_stride_[d];
    }
    const Block blk{x_, y_, src_stride_[p_], src_stride_[q_], q_contiguous_,
                    std::min(dims_[p_] - first[p_], 2 * x_), std::min(dims_[q_] - first[q_], y_)};
    // The oneDNN buffer is untyped memory, written here in whole words.
    auto* out = reinterpret_cast<std::uint32_t*>(dst + dst_base);
    if (fast_ && q_contiguous_)
        copy_block_rows_bf16(blk, src + src_base, out);
    else if (fast_ && x_ == 16 && y_ % 16 == 0)
        copy_block_x16(blk, src + src_base, out);
    else
        copy_block(blk, src + src_base, out);
}

void PairBlockedCopy::run(const float* src, std::uint16_t* dst) const {
    const std::int64_t block = 2 * x_ * y_;
    core_detail::for_each_slice(std::size_t(total_blocks_ * block), [&](std::size_t b, std::size_t e) {
        // Each block goes to the slice that holds its first element.
        for (std::int64_t o = (std::int64_t(b) + block - 1) / block; o * block < std::int64_t(e); ++o) {
            std::int64_t rest = o, index[kMaxDims]{};
            for (int d = ndims_ - 1; d >= 0; --d) {
                index[d] = rest % blocks_[d];
                rest /= blocks_[d];
            }
            write_block(index, src, dst);
        }
    });
}

void PairBlockedCopy::run_rows(const float* src, std::uint16_t* dst, std::int64_t begin, std::int64_t end) const {
    const int band = band_dim_;
    const std::int64_t others = total_blocks_ / blocks_[band];
    for (std::int64_t b = begin / block_len_[band]; b * block_len_[band] < end; ++b)
        for (std::int64_t o = 0; o < others; ++o) {
            std::int64_t rest = o, index[kMaxDims]{};
            index[band] = b;
            for (int d = ndims_ - 1; d >= 0; --d) {
                if (d == band) continue;
                index[d] = rest % blocks_[d];
                rest /= blocks_[d];
            }
            write_block(index, src, dst);
        }
}

}  // namespace lf
