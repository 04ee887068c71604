#pragma once
// The Keras readers model_formats() lists: a file path in, the imported model out.
#include <string>

#include "layerforge/import/import.h"

namespace lf::keras {

ImportedModel read_archive_file(const std::string& path);  // .keras
ImportedModel read_h5_file(const std::string& path);       // .h5, .hdf5

}  // namespace lf::keras
