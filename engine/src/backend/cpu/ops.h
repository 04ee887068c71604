#pragma once
// Factories of the CPU ops, one per file in this folder; op_table.cpp keys them by LayerOp.
#include <memory>

#include "backend/cpu/op.h"

namespace lf {

std::unique_ptr<CpuOp> make_dense_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_activation_op(const OpSetup& s);  // every Activation-family layer
std::unique_ptr<CpuOp> make_dropout_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_add_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_concatenate_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_multiply_op(const OpSetup& s);     // element-wise, a (1, 1, C) operand broadcast
std::unique_ptr<CpuOp> make_conv_op(const OpSetup& s);         // Conv2D, DepthwiseConv2D, Conv2DTranspose
std::unique_ptr<CpuOp> make_pooling_op(const OpSetup& s);      // MaxPool2D, AveragePooling2D
std::unique_ptr<CpuOp> make_global_pooling_op(const OpSetup& s);  // GlobalAveragePooling2D, GlobalMaxPooling2D
std::unique_ptr<CpuOp> make_batch_norm_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_zero_padding_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_kernel_op(const OpSetup& s);       // a plugin layer's LayerSpec::kernel

}  // namespace lf
