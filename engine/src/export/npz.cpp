#include "export/npz.h"

#include <zlib.h>

#include "layerforge/core/npy.h"

namespace lf::exporter {

namespace {

void put16(std::string& s, unsigned v) { s += char(v & 0xff), s += char((v >> 8) & 0xff); }
void put32(std::string& s, std::uint32_t v) { put16(s, v & 0xffff), put16(s, v >> 16); }

// Each member as core/npy.h encodes it.
std::string encode_npy(const TensorRef& t) { return lf::encode_npy(t.shape, t.data, t.size); }

}  // namespace

std::string encode_npz(const std::vector<TensorRef>& arrays) {
    std::string zip, central;
    for (const TensorRef& t : arrays) {
        const std::string name = t.name + ".npy", data = encode_npy(t);
        const auto crc = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
        const auto offset = std::uint32_t(zip.size());
        auto fields = [&](std::string& s) {  // shared by the local and the central header
            put16(s, 20), put16(s, 0), put16(s, 0), put16(s, 0), put16(s, 0x21);  // version, flags, stored, time, date
            put32(s, crc), put32(s, std::uint32_t(data.size())), put32(s, std::uint32_t(data.size()));
            put16(s, unsigned(name.size())), put16(s, 0);
        };
        put32(zip, 0x04034b50);
        fields(zip);
        zip += name + data;
        put32(central, 0x02014b50);
        put16(central, 20);
        fields(central);
        put16(central, 0), put16(central, 0), put16(central, 0), put32(central, 0), put32(central, offset);
        central += name;
    }
    const auto central_at = std::uint32_t(zip.size());
    zip += central;
    put32(zip, 0x06054b50);
    put16(zip, 0), put16(zip, 0), put16(zip, unsigned(arrays.size())), put16(zip, unsigned(arrays.size()));
    put32(zip, std::uint32_t(central.size())), put32(zip, central_at), put16(zip, 0);
    return zip;
}

}  // namespace lf::exporter
