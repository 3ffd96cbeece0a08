// Deletion vectors (§8): where a descriptor's bitmap lives, and the RoaringBitmapArray format.
//
// A descriptor's bitmap is inline (`i`: Z85 text in the log), in a file named from a UUID under
// the table root (`u`: `<prefix>/deletion_vector_<uuid>.bin`), or in a file at an absolute path
// (`p`). A DV file starts with a version byte (1); each bitmap in it is framed as a big-endian
// int32 size, the bytes, and a big-endian CRC-32 of the bytes; the descriptor's offset points at
// the size. The bitmap bytes are a RoaringBitmapArray: the portable format (magic 1681511377,
// little-endian bucket count, then per bucket its high 32 bits and a standard 32-bit Roaring
// bitmap) or the legacy native one (magic 1681511376, bitmap count, then per bitmap its length and
// a 32-bit Roaring bitmap). The Roaring decoder is this file's own: Debian's libroaring-dev is
// release 0.2.66 (2019), too old to rely on for the 64-bit format, and the format is small.
//
// Errors: DELTA_DELETION_VECTOR_CHECKSUM_MISMATCH for a CRC that disagrees with the bytes, and
// DELTA_DELETION_VECTOR_SIZE_MISMATCH for a size that disagrees with the descriptor or bytes
// that end before the RoaringBitmapArray they announce; each names the DV file or says inline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/filesystem/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief Decode Z85 (ZeroMQ base-85) text; its length must be a multiple of 5.
Result<std::string> DecodeZ85(std::string_view text);

/// \brief The CRC-32 (IEEE, as zlib) that frames a bitmap in a DV file.
uint32_t DeletionVectorChecksum(std::string_view bytes);

/// \brief Decode a serialized RoaringBitmapArray into its values, ascending. `source` names the
/// bitmap in errors.
Result<std::vector<uint64_t>> DecodeRoaringBitmapArray(std::string_view bytes,
                                                       const std::string& source);

/// \brief The path of the DV file of a `u` or `p` descriptor.
Result<std::string> DeletionVectorPath(const std::string& table_root,
                                       const DeletionVectorDescriptor& descriptor);

/// \brief The deleted row indexes of a descriptor, ascending, read from the log (inline) or
/// from its file, with the framing checked.
Result<std::vector<uint64_t>> LoadDeletionVector(arrow::fs::FileSystem& filesystem,
                                                 const std::string& table_root,
                                                 const DeletionVectorDescriptor& descriptor);

}  // namespace parley::delta
