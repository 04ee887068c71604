#pragma once
// Prefixes a configuration error with the training field it came from ("training.loss: ...").
#include <string>

#include "layerforge/core/error.h"

namespace lf::train_detail {

template <class F>
auto configured(const std::string& field, F&& make) {
    try {
        return make();
    } catch (const Error& e) {
        throw input_error("training." + field + ": " + e.what());
    }
}

}  // namespace lf::train_detail
