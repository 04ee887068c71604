#!/usr/bin/env bash
# The device check of the CUDA backend, in two halves.
#
#   scripts/gpu_check.sh --bundle   here (Debian, no GPU): builds the gpu test suites and the CUDA
#                                   module, and packs them with the shared libraries they load
#                                   that the GPU machine's image lacks (Qt Core/Test, oneDNN, ICU,
#                                   image codecs, SQLite) into build/gpu_bundle.tar.xz. Commit
#                                   nothing; pass the file to the device tool with `carry`.
#   scripts/gpu_check.sh            on the GPU machine (H200, nvcc 13, cuDNN and cuBLAS from
#                                   PyTorch's wheels, no network, no Debian dev packages, so the
#                                   engine's CPU side cannot be built there): prints the GPU and the
#                                   toolchain, compiles the CUDA module there with nvcc for the
#                                   device (the carried one is the fallback), unpacks the bundle,
#                                   and runs `ctest -L gpu` over it. Finishes in about a minute;
#                                   every step is bounded so the whole stays under 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${LF_BUILD_DIR:-build}
BUNDLE=$BUILD/gpu_bundle.tar.xz

bundle() {
    set -e
    local tests
    tests=$(cd tests/gpu && ls test_*.cpp | sed 's/\.cpp$//')
    # shellcheck disable=SC2086
    cmake --build "$BUILD" -j2 --target layerforge_cuda $tests
    local stage=$BUILD/gpu_bundle
    rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib"
    cp "$BUILD/app/liblayerforge_cuda.so" "$stage/lib/"
    for t in $tests; do cp "$BUILD/tests/$t" "$stage/bin/" && strip "$stage/bin/$t"; done
    # Every library the suites load except glibc's, the C++ runtime and CUDA's: the GPU machine has
    # newer ones, and its own build of the module needs its own libstdc++.
    for f in "$stage"/bin/*; do ldd "$f"; done | awk '$3 ~ /^\// {print $3}' | sort -u |
        grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas[^/]*|libcudnn[^/]*)\.so' |
        while read -r lib; do cp -L "$lib" "$stage/lib/"; done
    echo "$tests" > "$stage/tests.txt"
    tar -C "$stage" -cJf "$BUNDLE" .
    ls -la "$BUNDLE"
}

# The GPU machine's CUDA libraries: the toolkit's, else those of PyTorch's nvidia-* wheels.
cuda_lib_path() {
    local dirs=() d
    for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/nvidia/lib64; do [ -d "$d" ] && dirs+=("$d"); done
    local site
    site=$(timeout 60 python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null || true)
    if [ -n "$site" ]; then
        for d in "$site"/nvidia/*/lib; do [ -d "$d" ] && dirs+=("$d"); done
    fi
    (IFS=:; echo "${dirs[*]}")
}

# nvcc for sm_90 straight from the module's sources: the same files CMake builds here.
build_module_on_device() {
    local out=$1 inc=() d libs=() nvcc
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    [ -x "$nvcc" ] || { echo "no nvcc on this machine"; return 1; }
    for d in ${LF_CUDA_LIBS//:/ }; do
        [ -d "$d/../include" ] && inc+=("-I$d/../include")
        libs+=("-L$d")
    done
    local src=engine/src/backend/cuda/module
    timeout 300 "$nvcc" -std=c++17 -O3 -shared -Xcompiler -fPIC,-fvisibility=hidden -gencode arch=compute_90,code=sm_90 \
        -I engine/src "${inc[@]}" "$src"/*.cpp "$src"/kernels.cu "${libs[@]}" -l:libcublas.so.13 -l:libcudnn.so.9 \
        -cudart static -Xlinker --no-undefined,--exclude-libs,ALL -o "$out"
}

check() {
    local work=${OUT:-/tmp}/gpu_check
    mkdir -p "$work"
    echo "== the GPU"
    timeout 30 nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv || echo "nvidia-smi failed"
    command -v nvcc >/dev/null && nvcc --version | tail -2
    timeout 60 python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))' ||
        echo "no PyTorch"
    LF_CUDA_LIBS=$(cuda_lib_path)
    export LF_CUDA_LIBS
    echo "CUDA libraries from: $LF_CUDA_LIBS"

    if [ ! -f "$BUNDLE" ]; then
        echo "no $BUNDLE: run scripts/gpu_check.sh --bundle on a build machine and carry it"
        return 2
    fi
    local stage=$work/bundle
    rm -rf "$stage" && mkdir -p "$stage" && tar -C "$stage" -xJf "$BUNDLE"
    local module=$stage/lib/liblayerforge_cuda.so
    echo "== building the CUDA module here (nvcc, sm_90)"
    if time build_module_on_device "$work/liblayerforge_cuda.so"; then
        module=$work/liblayerforge_cuda.so
        echo "built: the suites run against this machine's build of the module"
    else
        echo "the module did not build here: the suites run against the carried one"
    fi

    # A CTest file of the carried suites: label gpu, exit 77 = skipped, as in tests/CMakeLists.txt.
    {
        for t in $(cat "$stage/tests.txt"); do
            echo "add_test(gpu/$t $stage/bin/$t)"
            echo "set_tests_properties(gpu/$t PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 240 ENVIRONMENT" \
                 "\"LF_CUDA_MODULE=$module;LF_SOURCE_DIR=$ROOT;OMP_NUM_THREADS=4;OMP_WAIT_POLICY=passive;QT_QPA_PLATFORM=offscreen\")"
        done
    } > "$stage/CTestTestfile.cmake"
    echo "== ctest -L gpu"
    LD_LIBRARY_PATH="$stage/lib:$LF_CUDA_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout 420 ctest --test-dir "$stage" -L gpu --output-on-failure -V 2>&1 | tee "$work/ctest.log"
    local rc=${PIPESTATUS[0]}
    echo "== summary"
    grep -E "^(PASS|FAIL|SKIP|QWARN|Totals)|tests passed|tests failed|SKIPPED" "$work/ctest.log"
    return "$rc"
}

case "${1:-}" in
--bundle) bundle ;;
"") check ;;
*) echo "usage: scripts/gpu_check.sh [--bundle]" >&2; exit 2 ;;
esac
