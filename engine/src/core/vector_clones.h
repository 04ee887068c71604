#pragma once
// Hot element-wise loops get AVX2/AVX-512 clones on x86-64 (GCC/Clang function multi-versioning):
// the build targets the baseline x86-64 (a .deb runs anywhere), the clones use what the CPU has.
// Not in sanitizer builds: the clones' ifunc resolver runs during relocation, before the
// sanitizer runtime is up, and its instrumented entry crashes (TSan) or is reported (ASan).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define LF_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define LF_VECTOR_CLONES
#endif
