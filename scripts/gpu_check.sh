#!/usr/bin/env bash
# The device check of the CUDA backend, in two halves.
#
#   scripts/gpu_check.sh --bundle   here (Debian, no GPU): builds the gpu test suites, the CUDA
#                                   module and layerforge-cli, exports the tutorial CNN and the
#                                   residual network as PyTorch code (the engine's own export, so
#                                   both sides train one architecture), and packs them with the
#                                   shared libraries they load that the GPU machine's image lacks
#                                   (Qt Core/Test, oneDNN, ICU, image codecs, SQLite) and the
#                                   Fashion-MNIST files (nothing can be downloaded there) into
#                                   build/gpu_bundle.tar.xz. Commit nothing; pass the file to the
#                                   device tool with `carry`.
#   scripts/gpu_check.sh            on the GPU machine (H200, nvcc 13, cuDNN and cuBLAS from
#                                   PyTorch's wheels, no network, no Debian dev packages, so the
#                                   engine's CPU side cannot be built there): prints the GPU and the
#                                   toolchain, compiles the CUDA module there with nvcc for the
#                                   device (the carried one is the fallback), unpacks the bundle,
#                                   runs `ctest -L gpu` over it, then trains the tutorial CNN and
#                                   the residual network one epoch on the GPU with layerforge-cli
#                                   and with PyTorch (bench/pytorch_gpu.py) at batch 50 and 128,
#                                   in float32, then mixed_bfloat16 and mixed_float16 (PyTorch's
#                                   autocast, fp16 with its GradScaler), and prints images/s and
#                                   the GPU memory peak of both sides.
#                                   Every step is bounded so the whole stays under 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${LF_BUILD_DIR:-build}
BUNDLE=$BUILD/gpu_bundle.tar.xz
FASHION=${LF_FASHION_MNIST_DIR:-/usr/share/datasets/fashion-mnist}
MODELS="fashion_cnn fashion_resnet"
BATCHES="50 128"
POLICIES=${POLICIES:-"float32 mixed_bfloat16 mixed_float16"}

bundle() {
    set -e
    local tests
    tests=$(cd tests/gpu && ls test_*.cpp | sed 's/\.cpp$//')
    # shellcheck disable=SC2086
    cmake --build "$BUILD" -j2 --target layerforge_cuda layerforge-cli $tests
    local stage=$BUILD/gpu_bundle
    rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib" "$stage/data" "$stage/pytorch"
    cp "$BUILD/app/liblayerforge_cuda.so" "$stage/lib/"
    for t in $tests; do cp "$BUILD/tests/$t" "$stage/bin/" && strip "$stage/bin/$t"; done
    cp "$BUILD/app/layerforge-cli" "$stage/bin/" && strip "$stage/bin/layerforge-cli"
    cp "$FASHION"/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz "$stage/data/"
    # export writes trained weights beside the code: a few CPU steps make a weights file first.
    local tmp=$BUILD/gpu_bundle_models
    rm -rf "$tmp" && mkdir -p "$tmp"
    for m in $MODELS; do
        cp "resources/templates/$m.lfproj" "$tmp/"
        LF_FASHION_MNIST_DIR=$FASHION "$BUILD/app/layerforge-cli" train "$tmp/$m.lfproj" --epochs 1 --limit-train 100 \
            --limit-test 100 --weights-out "$tmp/$m.weights.safetensors" > /dev/null
        "$BUILD/app/layerforge-cli" export "$tmp/$m.lfproj" --weights "$tmp/$m.weights.safetensors" --format pytorch \
            --out "$stage/pytorch/$m"
    done
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
        -I engine/src "${inc[@]}" "$src"/*.cpp "$src"/*.cu "${libs[@]}" -l:libcublas.so.13 -l:libcudnn.so.9 -ldl \
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
            echo "set_tests_properties(gpu/$t PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 180 ENVIRONMENT" \
                 "\"LF_CUDA_MODULE=$module;LF_SOURCE_DIR=$ROOT;OMP_NUM_THREADS=4;OMP_WAIT_POLICY=passive;QT_QPA_PLATFORM=offscreen\")"
        done
    } > "$stage/CTestTestfile.cmake"
    echo "== ctest -L gpu"
    LD_LIBRARY_PATH="$stage/lib:$LF_CUDA_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout 240 ctest --test-dir "$stage" -L gpu --output-on-failure -V 2>&1 | tee "$work/ctest.log"
    local rc=${PIPESTATUS[0]}
    echo "== summary"
    grep -E "^(PASS|FAIL|SKIP|QWARN|Totals)|tests passed|tests failed|SKIPPED" "$work/ctest.log"
    compare_training "$stage" "$module" "$work"
    return "$rc"
}

# The peak of the GPU memory used by every process on the device while `$@` runs (MiB, as
# nvidia-smi reports it: the CUDA context included), into $work/peak.
with_gpu_peak() {
    local peak_file=$1
    shift
    (
        local peak=0 used
        while :; do
            used=$(nvidia-smi --query-compute-apps=used_memory --format=csv,noheader,nounits 2>/dev/null |
                awk '{s += $1} END {print s + 0}')
            [ "${used:-0}" -gt "$peak" ] && peak=$used && echo "$peak" > "$peak_file"
            sleep 0.2
        done
    ) &
    local sampler=$!
    echo 0 > "$peak_file"
    "$@"
    local rc=$?
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    return "$rc"
}

# images/s of one epoch from layerforge-cli's --json step events: the images between the first
# logged step (the first steps build the plan and choose cuDNN's algorithms) and the last,
# over the time between them.
cli_images_per_s() {
    python3 - "$1" "$2" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
steps = [e for e in events if e.get("event") == "step"]
if len(steps) < 2:
    sys.exit("no step events")
a, b = steps[0], steps[-1]
print(round((b["step"] - a["step"]) * int(sys.argv[2]) / (b["elapsed_seconds"] - a["elapsed_seconds"])))
PY
}

# One field of bench/pytorch_gpu.py's --json result, rounded.
torch_field() {
    python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["results"][0][sys.argv[2]]))' "$1" "$2"
}

compare_training() {
    local stage=$1 module=$2 work=$3 m b
    echo "== one epoch of Fashion-MNIST on the GPU: layerforge-cli --device cuda:0 and PyTorch"
    local table=$work/training_table.txt
    printf '%-16s %-15s %6s %14s %14s %7s %12s %12s %14s\n' model precision batch "lf images/s" "torch images/s" \
        ratio "lf peak MiB" "torch MiB" "torch alloc MiB" > "$table"
    local p
    for p in $POLICIES; do
    local autocast=
    [ "$p" = mixed_bfloat16 ] && autocast="--autocast bf16"
    [ "$p" = mixed_float16 ] && autocast="--autocast fp16"
    for m in $MODELS; do
        cp "resources/templates/$m.lfproj" "$work/$m.lfproj"
        for b in $BATCHES; do
            # The whole check has 8 minutes; a run takes well under a minute when all is well.
            if [ "$SECONDS" -gt 390 ]; then
                printf '%-16s %-15s %6s %s\n' "$m" "$p" "$b" "not run: the check's 8 minutes are nearly spent" >> "$table"
                continue
            fi
            local log=$work/$m-$p-$b.jsonl lf_ips=failed torch_ips=failed lf_peak torch_peak torch_alloc=-
            if LF_FASHION_MNIST_DIR=$stage/data LF_CUDA_MODULE=$module \
                LD_LIBRARY_PATH="$stage/lib:$LF_CUDA_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
                with_gpu_peak "$work/peak" timeout 90 "$stage/bin/layerforge-cli" train "$work/$m.lfproj" \
                --device cuda:0 --precision "$p" --epochs 1 --batch-size "$b" --log-every 50 --json > "$log" 2> "$log.err"; then
                lf_ips=$(cli_images_per_s "$log" "$b" || echo failed)
            else
                echo "layerforge-cli train $m ($p) at batch $b failed:"; tail -5 "$log.err"; grep -m3 '"failed"\|error' "$log"
            fi
            lf_peak=$(cat "$work/peak")
            local pj=$work/$m-$p-$b.torch.json
            if with_gpu_peak "$work/peak" timeout 90 python3 bench/pytorch_gpu.py --model-dir "$stage/pytorch/$m" \
                --data "$stage/data" --batch "$b" $autocast --json > "$pj" 2> "$pj.err"; then
                torch_ips=$(torch_field "$pj" images_per_s)
                torch_alloc=$(torch_field "$pj" peak_allocated_mib)
            else
                echo "PyTorch $m ($p) at batch $b failed:"; tail -5 "$pj.err"
            fi
            torch_peak=$(cat "$work/peak")
            local ratio=-
            [[ $lf_ips =~ ^[0-9]+$ && $torch_ips =~ ^[0-9]+$ && $torch_ips -gt 0 ]] &&
                ratio=$(python3 -c "print('%.2f' % ($lf_ips / $torch_ips))")
            printf '%-16s %-15s %6s %14s %14s %7s %12s %12s %14s\n' "$m" "$p" "$b" "$lf_ips" "$torch_ips" "$ratio" \
                "$lf_peak" "$torch_peak" "$torch_alloc" >> "$table"
        done
    done
    done
    cat "$table"
}

case "${1:-}" in
--bundle) bundle ;;
"") check ;;
*) echo "usage: scripts/gpu_check.sh [--bundle]" >&2; exit 2 ;;
esac
