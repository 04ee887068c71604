// The module's one exported symbol (see Note [The CUDA module's C entry point]).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "backend/cuda/cuda_api.h"
#include "blas.h"
#include "collective.h"
#include "context.h"
#include "conv.h"
#include "device_query.h"
#include "dnn.h"
#include "graph.h"
#include "kernels.h"
#include "layer_kernels.h"
#include "update_kernels.h"

namespace {

int cublas_version() {
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    return major * 10000 + minor * 100 + patch;
}

// Filled on the first call; none of these versions needs a driver.
lf_cuda_api make_api() {
    using namespace lf::cuda;
    lf_cuda_api a{};
    a.abi_version = LF_CUDA_ABI_VERSION;
    a.struct_size = sizeof(lf_cuda_api);
    cudaRuntimeGetVersion(&a.runtime_version);
    a.cudnn_version = int(cudnnGetVersion());
    a.cublas_version = cublas_version();
    a.driver_version = driver_version;
    a.device_count = device_count;
    a.device_props = device_props;
    a.mem_get_info = mem_get_info;
    a.malloc = device_malloc;
    a.free = device_free;
    a.context_create = context_create;
    a.context_destroy = context_destroy;
    a.synchronize = synchronize;
    a.copy_to_device = copy_to_device;
    a.copy_to_host = copy_to_host;
    a.fill = fill;
    a.copy_on_device = copy_on_device;
    a.add = add;
    a.sgemm = sgemm;
    a.add_bias = add_bias;
    a.bias_grad = bias_grad;
    a.activation_forward = activation_forward;
    a.activation_backward = activation_backward;
    a.softmax_forward = softmax_forward;
    a.softmax_backward = softmax_backward;
    a.act_forward = act_forward;
    a.act_backward = act_backward;
    a.transpose = transpose;
    a.pad2d = pad2d;
    a.crop2d = crop2d;
    a.copy_2d = copy_2d;
    a.multiply = multiply;
    a.sum_pixels = sum_pixels;
    a.conv_create = conv_create;
    a.conv_destroy = conv_destroy;
    a.conv_choose = conv_choose;
    a.conv_forward = conv_forward;
    a.conv_backward_data = conv_backward_data;
    a.conv_backward_filter = conv_backward_filter;
    a.pool_forward = pool_forward;
    a.pool_backward = pool_backward;
    a.bn_stats = bn_stats;
    a.bn_forward = bn_forward;
    a.bn_moving = bn_moving;
    a.bn_backward = bn_backward;
    a.dropout_forward = dropout_forward;
    a.update = update;
    a.scale = scale;
    a.collective_id = collective_id;
    a.collective_create = collective_create;
    a.collective_destroy = collective_destroy;
    a.collective_sum = collective_sum;
    a.collective_join = collective_join;
    a.collective_done = collective_done;
    a.host_alloc = host_alloc;
    a.host_free = host_free;
    a.event_create = event_create;
    a.event_destroy = event_destroy;
    a.event_wait_host = event_wait_host;
    a.event_record = event_record;
    a.stream_wait = stream_wait;
    a.upload = upload;
    a.capture_begin = capture_begin;
    a.capture_end = capture_end;
    a.graph_launch = graph_launch;
    a.graph_destroy = graph_destroy;
    a.count_step = count_step;
    a.cast = cast;
    a.gemm = gemm;
    a.check_finite = check_finite;
    a.timing_event_create = timing_event_create;
    a.event_elapsed = event_elapsed;
    return a;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const lf_cuda_api* lf_cuda_module_api(uint32_t) {
    static const lf_cuda_api api = make_api();
    return &api;
}
