#pragma once
// NumPy's .npz: a zip archive (stored, no compression) of float32 little-endian .npy arrays,
// readable by numpy.load. Keys may contain '/' ("dense/kernel").
#include <string>
#include <vector>

#include "layerforge/store/weights_file.h"

namespace lf::exporter {

std::string encode_npz(const std::vector<TensorRef>& arrays);

}  // namespace lf::exporter
