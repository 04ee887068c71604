#pragma once
// Registration entry points of the built-in layers, one per file in this folder.
#include "layerforge/layers/registry.h"

namespace lf {

void register_builtin_layers(LayerRegistry& r);

void register_input(LayerRegistry& r);
void register_dense(LayerRegistry& r);
void register_reshaping(LayerRegistry& r);   // Flatten, Reshape, ZeroPadding2D
void register_activations(LayerRegistry& r); // Activation, ReLU, LeakyReLU, Sigmoid, Tanh, Softmax, GELU
void register_dropout(LayerRegistry& r);
void register_merge(LayerRegistry& r);       // Add, Concatenate, Multiply
void register_convolution(LayerRegistry& r); // Conv2D, DepthwiseConv2D, Conv2DTranspose
void register_pooling(LayerRegistry& r);     // MaxPool2D, AveragePooling2D, Global{Average,Max}Pooling2D
void register_normalization(LayerRegistry& r);  // BatchNormalization

// The activation names Dense and Activation accept, as Keras spells them.
const std::vector<std::string>& activation_names();

}  // namespace lf
