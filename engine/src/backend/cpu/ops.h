#pragma once
// Factories of the CPU ops, one per file in this folder; the layer specs in layers/ point here.
#include <memory>

#include "backend/cpu/op.h"

namespace lf {

std::unique_ptr<CpuOp> make_dense_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_activation_op(const OpSetup& s);  // every Activation-family layer
std::unique_ptr<CpuOp> make_dropout_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_add_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_concatenate_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_conv_op(const OpSetup& s);         // Conv2D, DepthwiseConv2D, Conv2DTranspose
std::unique_ptr<CpuOp> make_pooling_op(const OpSetup& s);      // window and global pooling
std::unique_ptr<CpuOp> make_batch_norm_op(const OpSetup& s);
std::unique_ptr<CpuOp> make_zero_padding_op(const OpSetup& s);

// ReLU rewrites of the plan (activation_op.cpp): a ReLU whose backward can run from its output
// (slope >= 0, no threshold or cap) may run in place; a plain max(x, 0) may fold into BatchNorm.
bool relu_runs_in_place(const NodeInfo& node);
bool is_plain_relu(const NodeInfo& node);

}  // namespace lf
