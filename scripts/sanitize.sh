#!/usr/bin/env bash
# Sanitizer runs (README, "Sanitizers"):
#   scripts/sanitize.sh address   ASan + UBSan build in build-asan, then the whole CTest suite
#   scripts/sanitize.sh thread    TSan build in build-tsan of the tests that run the engine on
#                                 threads next to a live UI, then those tests
# Any report fails the test that caused it (-fno-sanitize-recover=all, halt_on_error). Suppressions
# in tests/sanitizers/ cover third-party code only, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
supp=$PWD/tests/sanitizers
# Debug-level line tables at -O1: readable reports, tests about as fast as a release build.
flags=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1")
case "${1:-}" in
  address)
    build=${LF_BUILD_DIR:-build-asan}
    cmake -S . -B "$build" "${flags[@]}" -DLF_SANITIZE=address,undefined
    cmake --build "$build" -j "$(nproc)"
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    ctest --test-dir "$build" --output-on-failure "${@:2}"
    ;;
  thread)
    build=${LF_BUILD_DIR:-build-tsan}
    tests=(engine/test_trainer engine/test_session data/test_pipeline store/test_run_store
           ui/test_training ui/test_studio_dashboard ui/test_checkpoint_browser ui/test_training_charts
           ui/test_live_steps ui/test_project_switch ui/test_run_views ui/test_dataset_panel
           ui/test_example_dataset)
    cmake -S . -B "$build" "${flags[@]}" -DLF_SANITIZE=thread
    cmake --build "$build" -j "$(nproc)" --target layerforge-cli $(printf '%s\n' "${tests[@]}" | sed 's#.*/##')
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$supp/tsan.supp"
    regex=$(printf '^%s$|' "${tests[@]}")
    ctest --test-dir "$build" --output-on-failure -R "${regex%|}" "${@:2}"
    ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread [ctest arguments]" >&2
    exit 2
    ;;
esac
