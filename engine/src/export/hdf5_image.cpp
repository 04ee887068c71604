#include "export/hdf5_image.h"

#include <hdf5.h>

#include <mutex>

#include "layerforge/core/error.h"

namespace lf::exporter {

namespace {

void silence_hdf5() {  // HDF5 prints its error stack to stderr unless told not to
    static std::once_flag once;
    std::call_once(once, [] {
        H5open();
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    });
}

void check(herr_t status, const std::string& what) {
    if (status < 0) throw runtime_error("HDF5 could not " + what);
}

// A link-creation list that makes missing parent groups, as h5py's create_group does.
hid_t parents_list() {
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    return lcpl;
}

}  // namespace

Hdf5Image::Hdf5Image() {
    silence_hdf5();
    const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_core(fapl, 1 << 16, false);  // memory only
    file_ = H5Fcreate("model.weights.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (file_ < 0) throw runtime_error("HDF5 could not create an in-memory file");
}

Hdf5Image::~Hdf5Image() {
    if (file_ >= 0) H5Fclose(hid_t(file_));
}

void Hdf5Image::group(const std::string& path) {
    const hid_t lcpl = parents_list();
    const hid_t g = H5Gcreate2(hid_t(file_), path.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    check(g < 0 ? -1 : H5Gclose(g), "create the group " + path);
}

void Hdf5Image::dataset(const std::string& path, const std::vector<std::int64_t>& shape, const float* values) {
    const std::vector<hsize_t> dims(shape.begin(), shape.end());
    const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t lcpl = parents_list();
    const hid_t ds = H5Dcreate2(hid_t(file_), path.c_str(), H5T_IEEE_F32LE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    H5Sclose(space);
    if (ds < 0) throw runtime_error("HDF5 could not create the dataset " + path);
    const herr_t written = H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(ds);
    check(written, "write the dataset " + path);
}

std::string Hdf5Image::bytes() {
    check(H5Fflush(hid_t(file_), H5F_SCOPE_GLOBAL), "flush the in-memory file");
    const ssize_t size = H5Fget_file_image(hid_t(file_), nullptr, 0);
    if (size <= 0) throw runtime_error("HDF5 could not size the in-memory file");
    std::string out(std::size_t(size), '\0');
    if (H5Fget_file_image(hid_t(file_), out.data(), out.size()) != size) throw runtime_error("HDF5 could not copy the in-memory file");
    return out;
}

}  // namespace lf::exporter
