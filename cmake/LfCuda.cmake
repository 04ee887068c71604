# LF_WITH_CUDA: AUTO builds the CUDA backend module when nvcc is found, ON requires it, OFF
# never builds it. Sets LF_CUDA_MODULE (ON when the module is built) for engine/ and tests/.
set_property(CACHE LF_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)
set(LF_CUDA_MODULE OFF)
if(NOT LF_WITH_CUDA MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "LF_WITH_CUDA must be AUTO, ON or OFF, not '${LF_WITH_CUDA}'")
endif()
if(NOT LF_WITH_CUDA STREQUAL "OFF")
  # PATH has nvcc only through /etc/profile.d/cuda.sh (TOOLCHAIN.md 2).
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # A100 and H100/H200 as machine code, plus sm_90 PTX for newer GPUs. No `native`: the
    # build machines have no GPU. Two real architectures keep nvcc's share of CI small.
    set(CMAKE_CUDA_ARCHITECTURES 80-real 90)
    set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 cannot pass CUDA 20 to nvcc
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    if(CCACHE_PROGRAM AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
      set(CMAKE_CUDA_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    find_library(CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR})
    find_path(CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDNN_LIBRARY AND CUDNN_INCLUDE_DIR)
    set(LF_CUDA_MODULE ON)
    message(STATUS "CUDA backend module: on (CUDA ${CUDAToolkit_VERSION}, ${CUDNN_LIBRARY})")
  elseif(LF_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "LF_WITH_CUDA=ON but the CUDA toolkit (nvcc) or cuDNN was not found: "
                        "compiler '${CMAKE_CUDA_COMPILER}', cuDNN '${CUDNN_LIBRARY}'")
  else()
    message(STATUS "CUDA backend module: off (no nvcc or no cuDNN found)")
  endif()
endif()
