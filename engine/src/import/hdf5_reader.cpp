#include "import/hdf5_reader.h"

#include <hdf5.h>

#include <mutex>

#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"

namespace lf::h5 {

namespace {

// HDF5 prints its error stack to stderr unless told not to; our messages say what went wrong.
void silence_hdf5() {
    static std::once_flag once;
    std::call_once(once, [] {
        H5open();
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    });
}

// One HDF5 identifier, closed with its own function when it goes.
class Id {
public:
    Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~Id() {
        if (id_ >= 0) close_(id_);
    }
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;
    hid_t get() const { return id_; }
    bool ok() const { return id_ >= 0; }

private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

// Each element of a string attribute, fixed-length (h5py's bytes) or variable-length (str).
std::vector<std::string> read_strings(hid_t attr, const std::string& where) {
    Id type(H5Aget_type(attr), H5Tclose), space(H5Aget_space(attr), H5Sclose);
    if (!type.ok() || !space.ok() || H5Tget_class(type.get()) != H5T_STRING)
        throw input_error(where + ": is not a string attribute");
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0 || count > (1 << 24)) throw input_error(where + ": has an unreadable size");
    std::vector<std::string> out;
    if (H5Tis_variable_str(type.get()) > 0) {
        std::vector<char*> ptrs(std::size_t(count), nullptr);
        Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
        if (count > 0 && H5Aread(attr, mem.get(), ptrs.data()) < 0) throw input_error(where + ": cannot be read");
        for (char* p : ptrs) out.emplace_back(p ? p : "");
        if (count > 0) H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
        return out;
    }
    const std::size_t size = H5Tget_size(type.get());
    if (size == 0 || size > (1u << 26)) throw input_error(where + ": has an unreadable string size");
    std::vector<char> buf(std::size_t(mul_size(count, std::int64_t(size))) + 1, '\0');
    if (count > 0 && H5Aread(attr, type.get(), buf.data()) < 0) throw input_error(where + ": cannot be read");
    for (hssize_t i = 0; i < count; ++i) {
        const char* s = buf.data() + std::size_t(i) * size;
        std::size_t n = 0;
        while (n < size && s[n] != '\0') ++n;  // NULLTERM or NULLPAD: up to the first NUL
        out.emplace_back(s, n);
    }
    return out;
}

}  // namespace

Reader::Reader(const std::string& bytes, std::string origin) : origin_(std::move(origin)) {
    silence_hdf5();
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 1 << 16, false) < 0 ||
        H5Pset_file_image(fapl.get(), const_cast<char*>(bytes.data()), bytes.size()) < 0)
        throw runtime_error(origin_ + ": HDF5 could not set up an in-memory file");
    file_ = H5Fopen("in-memory.h5", H5F_ACC_RDONLY, fapl.get());
    if (file_ < 0) throw input_error(origin_ + ": not an HDF5 file (or a damaged one)");
}

Reader::~Reader() {
    if (file_ >= 0) H5Fclose(hid_t(file_));
}

bool Reader::is_group(const std::string& path) const {
    std::string prefix;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        prefix += (prefix.empty() ? "" : "/") + path.substr(start, end - start);
        if (H5Lexists(hid_t(file_), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        start = end + 1;
    }
    H5O_info_t info;
    return H5Oget_info_by_name(hid_t(file_), path.c_str(), &info, H5P_DEFAULT) >= 0 && info.type == H5O_TYPE_GROUP;
}

std::vector<std::string> Reader::children(const std::string& group) const {
    if (!is_group(group)) throw input_error(origin_ + ": no group '" + group + "'");
    Id g(H5Gopen2(hid_t(file_), group.c_str(), H5P_DEFAULT), H5Gclose);
    H5G_info_t info;
    if (!g.ok() || H5Gget_info(g.get(), &info) < 0) throw input_error(origin_ + ": group '" + group + "' cannot be read");
    std::vector<std::string> out;
    for (hsize_t i = 0; i < info.nlinks; ++i) {
        const ssize_t n = H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
        if (n < 0) throw input_error(origin_ + ": group '" + group + "' has an unreadable entry");
        std::string name(std::size_t(n) + 1, '\0');
        H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
        name.resize(std::size_t(n));
        out.push_back(name);
    }
    return out;
}

std::optional<std::vector<std::string>> Reader::strings(const std::string& path, const std::string& name) const {
    const std::string where = origin_ + ": attribute '" + name + "' of '" + path + "'";
    if (H5Aexists_by_name(hid_t(file_), path.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
    Id attr(H5Aopen_by_name(hid_t(file_), path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attr.ok()) throw input_error(where + ": cannot be opened");
    return read_strings(attr.get(), where);
}

ImportedTensor Reader::tensor(const std::string& path) const {
    const std::string where = origin_ + ": dataset '" + path + "'";
    if (H5Lexists(hid_t(file_), path.c_str(), H5P_DEFAULT) <= 0) throw input_error(where + " is missing");
    Id ds(H5Dopen2(hid_t(file_), path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds.ok()) throw input_error(where + " is not a dataset");
    Id type(H5Dget_type(ds.get()), H5Tclose), space(H5Dget_space(ds.get()), H5Sclose);
    const H5T_class_t cls = type.ok() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
    if (cls != H5T_FLOAT && cls != H5T_INTEGER) throw input_error(where + " does not hold numbers");
    const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0 || rank > 8) throw input_error(where + " has an unreadable shape");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    ImportedTensor t;
    std::int64_t count = 1;
    for (hsize_t d : dims) {
        if (d > hsize_t(kMaxShapeElements)) throw input_error(where + " is larger than any weight Layerforge holds");
        t.shape.push_back(std::int64_t(d));
        count = mul_size(count, std::int64_t(d));
    }
    if (count > (std::int64_t(1) << 32)) throw input_error(where + " is larger than any weight Layerforge holds");
    t.values.resize(std::size_t(count));
    if (count > 0 && H5Dread(ds.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.values.data()) < 0)
        throw input_error(where + " cannot be read as float32");
    return t;
}

}  // namespace lf::h5
