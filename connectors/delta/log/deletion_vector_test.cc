// Deletion vectors: Z85, hand-built RoaringBitmapArrays (array, run and bitmap containers,
// several buckets), and the DV file framing with its checks.
#include "connectors/delta/log/deletion_vector.h"

#include "connectors/delta/delta_test_util.h"

namespace parley::delta {
namespace {

void PutLE(std::string* out, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}
void PutBE(std::string* out, uint64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) out->push_back(static_cast<char>(value >> (8 * i)));
}

// Portable RoaringBitmapArray: bucket 0 holds {1, 5} and {65539} (two array containers, no
// run containers); bucket 1 holds the run 10..19 (one run container).
std::string PortableBitmap() {
  std::string out;
  PutLE(&out, 1681511377, 4);
  PutLE(&out, 2, 8);  // buckets
  PutLE(&out, 0, 4);  // bucket key 0
  PutLE(&out, 12346, 4);
  PutLE(&out, 2, 4);  // containers
  PutLE(&out, 0, 2);
  PutLE(&out, 1, 2);  // key 0, cardinality 2
  PutLE(&out, 1, 2);
  PutLE(&out, 0, 2);  // key 1, cardinality 1
  PutLE(&out, 0, 4);
  PutLE(&out, 0, 4);  // offsets (unused by a sequential reader)
  PutLE(&out, 1, 2);
  PutLE(&out, 5, 2);
  PutLE(&out, 3, 2);
  PutLE(&out, 1, 4);      // bucket key 1
  PutLE(&out, 12347, 4);  // one container, with runs
  out.push_back('\x01');  // the container is a run container
  PutLE(&out, 0, 2);
  PutLE(&out, 9, 2);  // key 0, cardinality 10
  PutLE(&out, 1, 2);  // one run
  PutLE(&out, 10, 2);
  PutLE(&out, 9, 2);  // 10..19
  return out;
}

// Portable bitmap of the given values below 65536, as one array container in bucket 0.
std::string SmallBitmap(const std::vector<uint16_t>& values) {
  std::string out;
  PutLE(&out, 1681511377, 4);
  PutLE(&out, 1, 8);
  PutLE(&out, 0, 4);
  PutLE(&out, 12346, 4);
  PutLE(&out, 1, 4);
  PutLE(&out, 0, 2);
  PutLE(&out, values.size() - 1, 2);
  PutLE(&out, 0, 4);
  for (uint16_t v : values) PutLE(&out, v, 2);
  return out;
}

TEST(DeletionVectorTest, DecodesZ85AsTheSpecExample) {
  ASSERT_OK_AND_ASSIGN(std::string decoded, DecodeZ85("HelloWorld"));
  EXPECT_EQ(decoded, std::string("\x86\x4F\xD2\x6F\xB5\x59\xF7\x5B", 8));
  EXPECT_FALSE(DecodeZ85("abc").ok());

  DeletionVectorDescriptor descriptor;
  descriptor.storage_type = "u";
  descriptor.path_or_inline_dv = "ab^-aqEH.-t@S}K{vb[*k^";
  ASSERT_OK_AND_ASSIGN(std::string path, DeletionVectorPath("/t", descriptor));
  EXPECT_EQ(path, "/t/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

TEST(DeletionVectorTest, DecodesPortableRoaringBitmapArray) {
  ASSERT_OK_AND_ASSIGN(auto values, DecodeRoaringBitmapArray(PortableBitmap(), "test"));
  std::vector<uint64_t> expected = {1, 5, 65539};
  for (uint64_t v = 10; v <= 19; ++v) expected.push_back((uint64_t{1} << 32) | v);
  EXPECT_EQ(values, expected);

  std::string truncated = PortableBitmap();
  truncated.resize(truncated.size() - 3);
  ASSERT_RAISES_CONDITION("DELTA_DELETION_VECTOR_SIZE_MISMATCH",
                          DecodeRoaringBitmapArray(truncated, "test"));
  ASSERT_RAISES_CONDITION("DELTA_DELETION_VECTOR_SIZE_MISMATCH",
                          DecodeRoaringBitmapArray(std::string(12, '\0'), "test"));
}

TEST(DeletionVectorTest, DecodesBitmapContainers) {
  // One bucket, one container of 5000 values (every even number below 10000): a bitmap.
  std::string out;
  PutLE(&out, 1681511377, 4);
  PutLE(&out, 1, 8);
  PutLE(&out, 0, 4);
  PutLE(&out, 12346, 4);
  PutLE(&out, 1, 4);
  PutLE(&out, 0, 2);
  PutLE(&out, 4999, 2);
  PutLE(&out, 0, 4);
  // Words 0..155 hold 32 even values each (4992), word 156 the last 8 (up to 9998).
  for (int word = 0; word < 1024; ++word) {
    PutLE(&out, word < 156 ? 0x5555555555555555ULL : (word == 156 ? 0x5555 : 0), 8);
  }
  ASSERT_OK_AND_ASSIGN(auto values, DecodeRoaringBitmapArray(out, "test"));
  ASSERT_EQ(values.size(), 5000u);
  EXPECT_EQ(values.front(), 0u);
  EXPECT_EQ(values.back(), 9998u);
}

TEST(DeletionVectorTest, DecodesLegacyNativeFormat) {
  std::string small = SmallBitmap({2, 7});
  std::string roaring = small.substr(16);  // the 32-bit bitmap after magic, count and key
  std::string native;
  PutBE(&native, 1681511376, 4);
  PutBE(&native, 1, 4);
  PutBE(&native, roaring.size(), 4);
  native += roaring;
  ASSERT_OK_AND_ASSIGN(auto values, DecodeRoaringBitmapArray(native, "test"));
  EXPECT_EQ(values, (std::vector<uint64_t>{2, 7}));
}

TEST(DeletionVectorTest, ChecksumIsZlibCrc32) {
  EXPECT_EQ(DeletionVectorChecksum("123456789"), 0xCBF43926u);
}

class DeletionVectorFileTest : public testing::DeltaTableTest {};

TEST_F(DeletionVectorFileTest, ReadsFramedBitmapAtOffsetAndChecksIt) {
  std::string bitmap = SmallBitmap({1, 4});
  std::string file(1, '\x01');
  PutBE(&file, bitmap.size(), 4);
  file += bitmap;
  PutBE(&file, DeletionVectorChecksum(bitmap), 4);
  WriteFile("ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", file);

  DeletionVectorDescriptor descriptor;
  descriptor.storage_type = "u";
  descriptor.path_or_inline_dv = "ab^-aqEH.-t@S}K{vb[*k^";
  descriptor.offset = 1;
  descriptor.size_in_bytes = static_cast<int32_t>(bitmap.size());
  descriptor.cardinality = 2;
  ASSERT_OK_AND_ASSIGN(auto values, LoadDeletionVector(*filesystem_, Root(), descriptor));
  EXPECT_EQ(values, (std::vector<uint64_t>{1, 4}));

  descriptor.size_in_bytes += 1;
  ASSERT_RAISES_CONDITION("DELTA_DELETION_VECTOR_SIZE_MISMATCH",
                          LoadDeletionVector(*filesystem_, Root(), descriptor));
  descriptor.size_in_bytes -= 1;

  file[file.size() - 1] ^= 0x01;
  WriteFile("ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", file);
  auto corrupt = LoadDeletionVector(*filesystem_, Root(), descriptor);
  ASSERT_RAISES_CONDITION("DELTA_DELETION_VECTOR_CHECKSUM_MISMATCH", corrupt);
  EXPECT_NE(corrupt.status().message().find("deletion_vector_d2c639aa"), std::string::npos);
}

}  // namespace
}  // namespace parley::delta
