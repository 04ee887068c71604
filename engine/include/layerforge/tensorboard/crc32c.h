#pragma once
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum TFRecord files use, and
// TFRecord's masked form of it (a CRC of data that holds CRCs is no longer a CRC of anything
// useful, so TensorFlow rotates it and adds a constant: tensorflow/core/lib/hash/crc32c.h).
#include <cstdint>
#include <string_view>

namespace lf::tensorboard {

std::uint32_t crc32c(std::string_view bytes);  // crc32c("123456789") == 0xE3069283
inline std::uint32_t mask_crc(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }
inline std::uint32_t masked_crc32c(std::string_view bytes) { return mask_crc(crc32c(bytes)); }

}  // namespace lf::tensorboard
