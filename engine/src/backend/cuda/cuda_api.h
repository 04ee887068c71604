#pragma once
// Note [The CUDA module's C entry point]
// The CUDA backend is split in two. liblayerforge_cuda.so (backend/cuda/module/, built only
// when the toolkit is found) is the one binary that links CUDA: cudart_static, cuBLAS(Lt) and
// cuDNN. It holds no engine code and exports one C function, lf_cuda_module_api(), returning
// this table of flat operations (devices, memory, copies, BLAS, kernels). Everything that
// knows the engine's types (the Backend, DeviceModel and Plan, the arena's accounting, the
// lowering of a schedule to these calls) is ordinary C++ in the static engine module
// backend/cuda, compiled in every build and tested without a GPU.
// Why not let the module implement lf::Backend itself: the engine modules are static
// libraries, so a module linking them would carry its own copies of the engine's global
// registries (the memory account, the layer table) that the executable's code never sees, and
// a module resolving them against the executable (ENABLE_EXPORTS) needs every engine symbol it
// uses to be linked into every executable and test that loads it, which the linker decides
// by what that executable happens to use. A C table has neither problem, and its ABI check is
// two integers.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Raised whenever the table or the meaning of an entry changes; the engine refuses a module
// built for another version (module_loader.cpp).
#define LF_CUDA_ABI_VERSION 7u
#define LF_CUDA_ENTRY_POINT "lf_cuda_module_api"

// What failed, as the module saw it: the CUDA (or cuBLAS/cuDNN) status and its text.
typedef struct lf_cuda_error {
    int code;
    char text[240];
} lf_cuda_error;

typedef struct lf_cuda_device_props {
    char name[256];
    uint64_t total_memory;  // bytes
    int cc_major, cc_minor;
    int multiprocessors;
    char pci_bus_id[32];  // "0000:65:00.0": how NVML finds the same device
} lf_cuda_device_props;

// A device's stream with its cuBLAS and cuDNN handles; every kernel is queued on it.
typedef struct lf_cuda_context lf_cuda_context;

// One rank's member of an NCCL clique over the ranks of a data-parallel job, on a context's
// device, with its own stream so the sums overlap the backward kernels. NCCL is opened with
// dlopen when the first one is made: the module loads (and trains on one GPU) without it.
typedef struct lf_cuda_collective lf_cuda_collective;
#define LF_CUDA_COLLECTIVE_ID_BYTES 128  // NCCL_UNIQUE_ID_BYTES

// An event on a context's device: one stream's point another stream (or the host) waits for.
typedef struct lf_cuda_event lf_cuda_event;
// The calls queued on a context's stream while it was captured, instantiated for replay.
typedef struct lf_cuda_graph lf_cuda_graph;

// Storage types of activations and their gradients (the numbers are part of the ABI). Entries
// that take one read and write every activation array in it and compute in float32 (ABI 6);
// weights, their gradients, biases, normalization statistics and optimizer state are float32.
enum lf_cuda_dtype { LF_CUDA_F32 = 0, LF_CUDA_BF16 = 1, LF_CUDA_F16 = 2 };
static inline size_t lf_cuda_dtype_bytes(int dtype) { return dtype == LF_CUDA_F32 ? 4 : 2; }

// Element-wise activations the kernels know (the numbers are part of the ABI). The first three
// are differentiated from their output, the others from their input, each with oneDNN's
// formula (the CPU backend's), so both backends agree at the kinks too.
enum lf_cuda_activation {
    LF_CUDA_RELU = 0,
    LF_CUDA_SIGMOID = 1,
    LF_CUDA_TANH = 2,
    LF_CUDA_LEAKY_RELU = 3,  // x > 0 ? x : alpha x
    LF_CUDA_ELU = 4,         // x > 0 ? x : alpha (e^x - 1)
    LF_CUDA_GELU = 5,        // x Phi(x), erf form
    LF_CUDA_GELU_TANH = 6,   // the tanh approximation
    LF_CUDA_SWISH = 7,       // x sigmoid(alpha x)
    LF_CUDA_EXP = 8,
    LF_CUDA_CLIP = 9,        // min(max(x, 0), max_value)
    LF_CUDA_KERAS_RELU = 10, // x >= max_value ? max_value : x >= threshold ? x : alpha (x - threshold)
    LF_CUDA_HARD_SIGMOID = 11,  // ABI 7: relu6(x + 3) / 6
    LF_CUDA_HARD_SWISH = 12,    // ABI 7: x relu6(x + 3) / 6
};

typedef struct lf_cuda_act {
    int kind;
    float alpha, threshold, max_value;
} lf_cuda_act;

// A convolution over an NHWC input n x h x w x c with k filters r x s x (c / groups) in KRSC
// order, symmetric padding (the engine pads an input that needs more at the bottom or right).
typedef struct lf_cuda_conv_shape {
    int64_t n, h, w, c, k, r, s, out_h, out_w;
    int pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w, groups;
    // x, y and the filter's storage (lf_cuda_dtype); 16-bit ones accumulate in float32 and may
    // use tensor cores, float32 ones never (no TF32).
    int dtype;
} lf_cuda_conv_shape;

// cuDNN's descriptors of one convolution, made once per plan step.
typedef struct lf_cuda_conv lf_cuda_conv;

enum lf_cuda_conv_pass { LF_CUDA_CONV_FORWARD = 0, LF_CUDA_CONV_BACKWARD_DATA = 1, LF_CUDA_CONV_BACKWARD_FILTER = 2 };

// A pooling window over an NHWC input; pad_top/pad_left shift the windows, the output size
// bounds them (TensorFlow's 'same' padding may be one larger at the bottom or right).
enum lf_cuda_pool_mode { LF_CUDA_POOL_MAX = 0, LF_CUDA_POOL_AVG_EXCLUDE_PAD = 1, LF_CUDA_POOL_AVG_INCLUDE_PAD = 2 };
typedef struct lf_cuda_pool_shape {
    int64_t n, h, w, c, out_h, out_w;
    int kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left, mode;
    int dtype;  // of x, y and their gradients
} lf_cuda_pool_shape;

// Optimizer rules (the numbers are part of the ABI), each the loop of its CPU rule
// (train/sgd.cpp, adam.cpp, rmsprop.cpp) over the float32 constants that rule computed for
// this step (layerforge/backend/weight_update.h: UpdateRule).
enum lf_cuda_rule { LF_CUDA_SGD = 0, LF_CUDA_MOMENTUM = 1, LF_CUDA_NESTEROV = 2, LF_CUDA_ADAM = 3, LF_CUDA_RMSPROP = 4 };
typedef struct lf_cuda_update {
    int rule;
    float a, mu, decay, b1, b2, eps, rho;
    float* state[2];  // device arrays of n floats: SGD velocity; Adam m, v; RMSprop v, momentum (or null)
    // ABI 6, loss scaling (mixed_float16): the kernel reads g x grad_scale (1: as it is), and
    // changes nothing when `skip` (device memory, may be null) is nonzero: a step whose
    // gradients overflowed (check_finite).
    float grad_scale;
    const int32_t* skip;
} lf_cuda_update;

// The per-channel reductions split the rows over this many blocks, each writing a partial sum
// per channel (two for bn_backward), which a second pass adds up in order: deterministic.
#define LF_CUDA_REDUCE_SPLIT 64
#define LF_CUDA_REDUCE_FLOATS(c) (2 * LF_CUDA_REDUCE_SPLIT * (size_t)(c))

// Every entry returns 0 on success, else the failing status with `err` (may be null) filled.
typedef struct lf_cuda_api {
    uint32_t abi_version;  // LF_CUDA_ABI_VERSION of the module's build
    uint32_t struct_size;  // sizeof(lf_cuda_api) of the module's build
    int runtime_version;   // cudaRuntimeGetVersion: 13000
    int cudnn_version;     // cudnnGetVersion: 91900
    int cublas_version;    // cublasGetProperty major*10000 + minor*100 + patch

    // The driver's CUDA version (0 without a driver).
    int (*driver_version)(int* version, lf_cuda_error* err);
    // Visible devices (CUDA_VISIBLE_DEVICES applies); *n is 0 on failure.
    int (*device_count)(int* n, lf_cuda_error* err);
    int (*device_props)(int device, lf_cuda_device_props* out, lf_cuda_error* err);
    int (*mem_get_info)(int device, uint64_t* free_bytes, uint64_t* total_bytes, lf_cuda_error* err);

    int (*malloc)(int device, size_t bytes, void** ptr, lf_cuda_error* err);
    int (*free)(int device, void* ptr, lf_cuda_error* err);

    lf_cuda_context* (*context_create)(int device, lf_cuda_error* err);
    void (*context_destroy)(lf_cuda_context* ctx);
    // Waits for everything queued on the context's stream.
    int (*synchronize)(lf_cuda_context* ctx, lf_cuda_error* err);
    // Copies on the context's stream; the host side may be pageable (then the call waits).
    int (*copy_to_device)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    int (*copy_to_host)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    int (*fill)(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err);
    // Device to device, on the stream.
    int (*copy_on_device)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    // dst[i] += src[i]: the gradients of a fan-out's consumers summed.
    int (*add)(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, lf_cuda_error* err);

    // Row-major C[m x n] = alpha * op(A) * op(B) + beta * C in float32 with TF32 off (the
    // CPU comparison needs full precision); op transposes when trans_* is nonzero. A is m x k
    // after op, B is k x n after op, all row-major and densely packed.
    int (*sgemm)(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, const float* b, float beta, float* c, lf_cuda_error* err);
    // y[r, :] += bias for every row r of rows x cols.
    int (*add_bias)(lf_cuda_context* ctx, int dtype, void* y, const float* bias, int64_t rows, int64_t cols,
                    lf_cuda_error* err);
    // bias_grad (+)= the column sums of dy (rows x cols); accumulate 0 overwrites. `partials`:
    // LF_CUDA_REDUCE_FLOATS(cols) floats of scratch, used within the call (as bn_stats' and
    // bn_backward's).
    int (*bias_grad)(lf_cuda_context* ctx, int dtype, const void* dy, float* bias_grad, int64_t rows, int64_t cols,
                     int accumulate, float* partials, lf_cuda_error* err);
    // y = f(x); dx = dy * f'(from y) (each of these activations' derivative follows from y).
    int (*activation_forward)(lf_cuda_context* ctx, int dtype, int kind, const void* x, void* y, size_t n,
                              lf_cuda_error* err);
    int (*activation_backward)(lf_cuda_context* ctx, int dtype, int kind, const void* y, const void* dy, void* dx,
                               size_t n, lf_cuda_error* err);
    // Softmax over each row of rows x cols (cuDNN, accurate); backward from y and dy.
    int (*softmax_forward)(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t rows, int64_t cols,
                           lf_cuda_error* err);
    int (*softmax_backward)(lf_cuda_context* ctx, int dtype, const void* y, const void* dy, void* dx, int64_t rows,
                            int64_t cols, lf_cuda_error* err);

    // ABI 2: the rest of the layers and the optimizer updates.
    // The activations from LF_CUDA_LEAKY_RELU on: y = f(x), dx = dy * f'(x).
    int (*act_forward)(lf_cuda_context* ctx, int dtype, const lf_cuda_act* act, const void* x, void* y, size_t n,
                       lf_cuda_error* err);
    int (*act_backward)(lf_cuda_context* ctx, int dtype, const lf_cuda_act* act, const void* x, const void* dy,
                        void* dx, size_t n, lf_cuda_error* err);
    // dst = src^T for a row-major rows x cols src: a Keras (r, s, c, k) kernel as KRSC and back,
    // converted from src_dtype to dst_dtype on the way (a float32 kernel into a 16-bit copy).
    int (*transpose)(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, int64_t rows,
                     int64_t cols, lf_cuda_error* err);
    // n images h x w x c into (h + top + bottom) x (w + left + right) x c with zeros around, and
    // the interior back out (crop) for the gradient.
    int (*pad2d)(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t n, int64_t h, int64_t w, int64_t c,
                 int top, int bottom, int left, int right, lf_cuda_error* err);
    int (*crop2d)(lf_cuda_context* ctx, int dtype, const void* y, void* x, int64_t n, int64_t h, int64_t w, int64_t c,
                  int top, int bottom, int left, int right, lf_cuda_error* err);
    // rows of `width` bytes from src (pitch spitch) to dst (pitch dpitch): Concatenate's blocks.
    int (*copy_2d)(lf_cuda_context* ctx, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                   size_t rows, lf_cuda_error* err);
    // dst[i] *= src[i], or src[(i / (pixels c)) c + i % c] when `broadcast` (a (1, 1, C) operand).
    int (*multiply)(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, int64_t pixels, int64_t c,
                    int broadcast, lf_cuda_error* err);
    // dst[b, :] = the sum over the pixels of src[b, p, :] for batch x pixels x c.
    int (*sum_pixels)(lf_cuda_context* ctx, int dtype, const void* src, void* dst, int64_t batch, int64_t pixels,
                      int64_t c, lf_cuda_error* err);

    lf_cuda_conv* (*conv_create)(lf_cuda_context* ctx, const lf_cuda_conv_shape* shape, lf_cuda_error* err);
    void (*conv_destroy)(lf_cuda_conv* conv);
    // cuDNN's heuristics' best algorithm for the pass needing at most max_workspace bytes; ABI 5:
    // the best deterministic one, unless none fits.
    int (*conv_choose)(lf_cuda_context* ctx, lf_cuda_conv* conv, int pass, size_t max_workspace, int* algo,
                       size_t* workspace, lf_cuda_error* err);
    // y = conv(x, w); dx = conv_bwd_data(w, dy); dw = conv_bwd_filter(x, dy) (overwritten), all
    // in the shape's dtype.
    int (*conv_forward)(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* x, const void* w, void* y,
                        void* workspace, size_t workspace_bytes, lf_cuda_error* err);
    int (*conv_backward_data)(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* w, const void* dy,
                              void* dx, void* workspace, size_t workspace_bytes, lf_cuda_error* err);
    int (*conv_backward_filter)(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* x, const void* dy,
                                void* dw, void* workspace, size_t workspace_bytes, lf_cuda_error* err);

    // Max pooling writes the winning input's index per output into argmax (null at inference);
    // backward gathers, so overlapping windows need no atomics.
    int (*pool_forward)(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* x, void* y, int32_t* argmax,
                        lf_cuda_error* err);
    int (*pool_backward)(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* dy, const int32_t* argmax,
                         void* dx, lf_cuda_error* err);

    // Batch normalization over rows x c (channels last). stats: the batch's mean and biased
    // variance; forward: y = gamma (x - mean) / sqrt(var + eps) + beta; moving: m = m momentum +
    // mean (1 - momentum), v = v momentum + var bessel (1 - momentum); backward: dgamma, dbeta
    // (null for a frozen layer: then dx = dy gamma / sqrt(var + eps), the statistics constants).
    int (*bn_stats)(lf_cuda_context* ctx, int dtype, const void* x, float* mean, float* var, int64_t rows, int64_t c,
                    float* partials, lf_cuda_error* err);
    int (*bn_forward)(lf_cuda_context* ctx, int dtype, const void* x, const float* mean, const float* var,
                      const float* gamma, const float* beta, float eps, void* y, int64_t rows, int64_t c,
                      lf_cuda_error* err);
    int (*bn_moving)(lf_cuda_context* ctx, const float* mean, const float* var, float* moving_mean, float* moving_var,
                     float momentum, float bessel, int64_t c, lf_cuda_error* err);
    int (*bn_backward)(lf_cuda_context* ctx, int dtype, const void* x, const void* dy, const float* mean,
                       const float* var, const float* gamma, float eps, float* dgamma, float* dbeta, void* dx,
                       int64_t rows, int64_t c, float* partials, lf_cuda_error* err);

    // Dropout's counter-based mask (backend/dropout_mask.h): mask[i] = dropout::mask(base, first + i,
    // threshold, scale) with base = dropout::step_base(seed, *step); y = x mask. The step is read
    // from device memory when the kernel runs (a replayed graph's masks follow the counter;
    // count_step advances it). x, y and the mask in `dtype`.
    int (*dropout_forward)(lf_cuda_context* ctx, int dtype, const void* x, void* y, void* mask, size_t n,
                           uint64_t seed, const uint64_t* step, uint64_t first, uint64_t threshold, float scale,
                           lf_cuda_error* err);

    // One optimizer step over w[0, n) from g. ABI 5: `u` is the step as the host knows it (its
    // rule picks the kernel and is checked); the kernel reads the constants and state arrays
    // from `device_u`, the same struct copied to device memory before the step, so a replayed
    // graph uses each step's learning rate and Adam's bias correction.
    int (*update)(lf_cuda_context* ctx, const lf_cuda_update* u, const lf_cuda_update* device_u, float* w,
                  const float* g, size_t n, lf_cuda_error* err);

    // ABI 3: data-parallel training on GPUs.
    // x[i] *= factor on the context's stream.
    int (*scale)(lf_cuda_context* ctx, float* x, float factor, size_t n, lf_cuda_error* err);
    // A new clique's id, made on rank 0 and sent to the others by the host transport; *nccl_version
    // gets NCCL's version code (22809). Fails, naming the library, where NCCL is not installed.
    int (*collective_id)(unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES], int* nccl_version, lf_cuda_error* err);
    // Joins the clique as `rank` of `size` on ctx's device; every rank calls it with the same id,
    // and it returns once all have. Null on failure.
    lf_cuda_collective* (*collective_create)(lf_cuda_context* ctx, const unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES],
                                             int rank, int size, lf_cuda_error* err);
    // Ends the membership; with `abort` nonzero it also cancels sums in flight (a rank giving up).
    void (*collective_destroy)(lf_cuda_collective* c, int abort);
    // data[0, n) *= scale, then its in-place sum over the clique: queued on the collective's
    // stream after everything queued on the context's stream so far.
    int (*collective_sum)(lf_cuda_collective* c, float* data, size_t n, float scale, lf_cuda_error* err);
    // The context's stream waits for every sum queued so far (the update reads them).
    int (*collective_join)(lf_cuda_collective* c, lf_cuda_error* err);
    // *done = 1 when the sums queued before the last join have completed, 0 while they run;
    // an asynchronous NCCL error (a peer lost) fails with NCCL's text.
    int (*collective_done)(lf_cuda_collective* c, int* done, lf_cuda_error* err);

    // ABI 5: inputs through pinned memory on a copy stream, and CUDA graphs of a plan's passes.
    // Page-locked host memory (cudaHostAlloc, portable): copies from it run asynchronously.
    int (*host_alloc)(size_t bytes, void** ptr, lf_cuda_error* err);
    int (*host_free)(void* ptr, lf_cuda_error* err);
    // An event without timing on ctx's device; null on failure.
    lf_cuda_event* (*event_create)(lf_cuda_context* ctx, lf_cuda_error* err);
    void (*event_destroy)(lf_cuda_event* ev);
    // The host waits for the work before the event's last record (at once when never recorded).
    int (*event_wait_host)(lf_cuda_event* ev, lf_cuda_error* err);
    // Records ev on the context's stream; stream_wait: the context's stream waits for ev's last record.
    int (*event_record)(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err);
    int (*stream_wait)(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err);
    // Host (pinned) to device on the context's copy stream, which first waits for `after` (null:
    // nothing) and then records `done`: the copy overlaps the kernels on the context's stream.
    int (*upload)(lf_cuda_context* ctx, void* dst, const void* pinned_src, size_t bytes, lf_cuda_event* after,
                  lf_cuda_event* done, lf_cuda_error* err);
    // Capture of the context's stream (cudaStreamCaptureModeThreadLocal): the calls queued
    // between begin and end are recorded, not run. capture_end instantiates them (null on failure,
    // with the reason; the stream has left capture either way); graph_launch runs them once more
    // on the context's stream, reading the device memory the calls named as it is then.
    int (*capture_begin)(lf_cuda_context* ctx, lf_cuda_error* err);
    lf_cuda_graph* (*capture_end)(lf_cuda_context* ctx, lf_cuda_error* err);
    int (*graph_launch)(lf_cuda_context* ctx, lf_cuda_graph* graph, lf_cuda_error* err);
    void (*graph_destroy)(lf_cuda_graph* graph);
    // *counter += 1 on the context's stream (the plan's step counter that dropout reads).
    int (*count_step)(lf_cuda_context* ctx, uint64_t* counter, lf_cuda_error* err);

    // ABI 6: mixed precision.
    // dst[i] = src[i] converted (round to nearest even; float32 overflow to a 16-bit type: inf).
    int (*cast)(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, size_t n,
                lf_cuda_error* err);
    // Row-major C[m x n] = op(A) op(B) (+ C when `accumulate`) with A and B in ab_dtype (16-bit)
    // and C in c_dtype (the same or float32), accumulated in float32 on tensor cores
    // (cublasGemmEx, CUBLAS_COMPUTE_32F); shapes and op as sgemm's.
    int (*gemm)(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, int ab_dtype,
                int c_dtype, const void* a, const void* b, int accumulate, void* c, lf_cuda_error* err);
    // *found = 1 when any of g[0, n) is infinite or NaN; left as it was otherwise (the caller
    // clears it once per step, then checks every gradient array).
    int (*check_finite)(lf_cuda_context* ctx, const float* g, size_t n, int32_t* found, lf_cuda_error* err);

    // ABI 6: the Profile panel's kernel times. An event that can time (event_create's cannot);
    // *ms = the time between the last records of start and end (waits for end).
    lf_cuda_event* (*timing_event_create)(lf_cuda_context* ctx, lf_cuda_error* err);
    int (*event_elapsed)(lf_cuda_event* start, lf_cuda_event* end, float* ms, lf_cuda_error* err);
} lf_cuda_api;

// The one exported symbol. Returns the module's table whatever `engine_abi` is; the engine
// compares the versions, so a mismatch is reported rather than crashed on.
typedef const lf_cuda_api* (*lf_cuda_entry_fn)(uint32_t engine_abi);

#ifdef __cplusplus
}
#endif
