# Install layout and the .deb (CPack DEB). Included from the top-level CMakeLists.txt, after
# every target exists. Layout under the prefix (/usr in the package):
#   bin/layerforge, bin/layerforge-cli
#   lib/layerforge/plugins/          the example plugins (the studio and CLI look in <bin>/../lib/layerforge/plugins)
#   share/layerforge/templates/      the project templates (<bin>/../share/layerforge/templates)
#   share/applications/, share/mime/packages/, share/icons/hicolor/
set(LF_INSTALLER_DIR ${CMAKE_CURRENT_LIST_DIR})

install(TARGETS layerforge-cli RUNTIME DESTINATION bin)
if(TARGET layerforge)
  install(TARGETS layerforge RUNTIME DESTINATION bin)
endif()
install(TARGETS ${LF_EXAMPLE_PLUGINS} LIBRARY DESTINATION lib/layerforge/plugins)
# The CUDA backend module, found at <bin>/../lib/layerforge (backend/cuda/module_loader.cpp).
if(TARGET layerforge_cuda)
  install(TARGETS layerforge_cuda LIBRARY DESTINATION lib/layerforge)
endif()
# The MPI module for `train --distributed` (engine/src/mpi/mpi_entry.h), found the same way.
# It links libmpi, so the package depends on Open MPI's library; mpirun is recommended.
if(TARGET layerforge_mpi)
  install(TARGETS layerforge_mpi LIBRARY DESTINATION lib/layerforge)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/templates/ DESTINATION share/layerforge/templates
        FILES_MATCHING PATTERN "*.lfproj")
install(FILES ${LF_INSTALLER_DIR}/layerforge.desktop DESTINATION share/applications)
install(FILES ${LF_INSTALLER_DIR}/layerforge-mime.xml DESTINATION share/mime/packages RENAME layerforge.xml)
install(FILES ${LF_INSTALLER_DIR}/icons/layerforge.svg DESTINATION share/icons/hicolor/scalable/apps)
foreach(size 16 24 32 48 64 128 256 512)
  install(FILES ${LF_INSTALLER_DIR}/icons/layerforge-${size}.png
          DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME layerforge.png)
endforeach()

# `cpack` (and the package test) package the build as it is instead of building `all` first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME layerforge)
set(CPACK_PACKAGE_VENDOR "Layerforge")
set(CPACK_PACKAGE_CONTACT "Layerforge maintainers <maintainers@layerforge.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop deep-learning studio: design, train and export neural networks")
set(CPACK_PACKAGE_DESCRIPTION "Layerforge lets you drag layers onto a canvas, train on image folders or\n\
Fashion-MNIST with live curves, keep checkpoints in a per-project database and export to ONNX,\n\
safetensors, PyTorch and tf.keras code. Includes layerforge-cli and example plugins.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY layerforge)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://layerforge.invalid")
# dpkg-shlibdeps finds the libraries the binaries and plugins link. What is dlopen'ed at run
# time: the example plugins (in this package) and Qt's platform plugins (xcb, offscreen), which
# ship in libqt6gui6, a linked and so computed dependency, and the CUDA backend module, whose
# cuBLAS and cuDNN come from NVIDIA's toolkit, not from a Debian package (TOOLCHAIN.md 4): without
# them the module fails to load and both programs run on the CPU, saying why.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Chinese UI text needs a CJK font; the templates train on Debian's Fashion-MNIST.
# mpirun starts data-parallel runs.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, dataset-fashion-mnist, openmpi-bin")
include(CPack)
