#!/usr/bin/env bash
# Installs the Debian packages Layerforge needs to build, test and run.
# Idempotent: calls apt-get only when something is missing.
set -euo pipefail
pkgs=(
  cmake ninja-build g++ pkg-config ccache
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl1-mesa-dev libxkbcommon-dev
  qt6-charts-dev libqt6opengl6-dev libqcustomplot-dev libqcustomplot2.1-qt6 fonts-noto-cjk qt6-translations-l10n
  libdnnl-dev ocl-icd-opencl-dev
  nlohmann-json3-dev zlib1g-dev libsqlite3-dev libpng-dev libturbojpeg0-dev libgif-dev
  dataset-fashion-mnist
  libonnx-dev libprotobuf-dev protobuf-compiler
  libhdf5-dev libzip-dev
  openmpi-bin libopenmpi-dev
  python3-numpy python3-onnx python3-opencv python3-torch python3-torchvision python3-h5py
  xvfb xauth
)
if [ "${LF_SETUP_BENCH:-0}" = 1 ]; then
  pkgs+=(python3-pil libopenblas0-openmp)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
