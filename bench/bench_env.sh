# Sourced by the compare_pytorch*.sh scripts: PyTorch's best settings (OpenBLAS not pinned to
# AVX2, glibc malloc neither mmapping nor trimming the large blocks every step) and the header
# that records when, where and under which load the figures were taken.
unset OPENBLAS_CORETYPE
# MALLOC_MMAP_MAX_=0: without it PyTorch re-faults the cats-vs-dogs CNN's 66-264 MB blocks every step.
export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=4294967296 MALLOC_MMAP_MAX_=0
# PyTorch's matrix products (every Dense layer) go through libblas.so.3, which is Debian's
# reference BLAS, several times slower, unless OpenBLAS is installed: no fair comparison without it.
BLAS=$(readlink -f "$(ldconfig -p | sed -n 's/^[[:space:]]*libblas\.so\.3 (.*) => //p' | head -1)")
case "$BLAS" in
  *openblas*) ;;
  *) if [ "${LF_BENCH_ANY_BLAS:-0}" != 1 ]; then
       echo "libblas.so.3 is $BLAS, not OpenBLAS: PyTorch would run far from its best." >&2
       echo "Install libopenblas0-openmp (LF_SETUP_BENCH=1 scripts/setup.sh), or set LF_BENCH_ANY_BLAS=1 for a smoke run." >&2
       exit 2
     fi ;;
esac

echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "nproc: $(nproc)"
echo "cpu:   $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "load:  $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, before the run)"
echo "blas:  $BLAS (PyTorch's libblas.so.3)"
echo
