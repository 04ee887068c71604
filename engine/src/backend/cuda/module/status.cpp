#include "status.h"

#include <cstdio>

namespace lf::cuda {

int fail(lf_cuda_error* err, int code, const char* what, const char* text, const char* name) {
    if (err) {
        err->code = code;
        std::snprintf(err->text, sizeof err->text, "%s: %s (%s %d)", what, text, name, code);
    }
    return code == 0 ? -1 : code;  // a failure is never reported as success
}

}  // namespace lf::cuda
