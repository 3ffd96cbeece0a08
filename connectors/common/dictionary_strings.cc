#include "connectors/common/dictionary_strings.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "arrow/buffer.h"
#include "arrow/type.h"
#include "arrow/util/bit_util.h"
#include "arrow/util/bitmap_ops.h"

namespace parley {
namespace {

bool IsStringFamily(arrow::Type::type id) {
  return id == arrow::Type::STRING || id == arrow::Type::LARGE_STRING ||
         id == arrow::Type::STRING_VIEW;
}

// The dictionary's values as views, or nothing when it holds a NULL or is not of strings or
// binaries.
std::optional<std::vector<std::string_view>> DictionaryViews(const arrow::Array& dictionary) {
  if (dictionary.null_count() > 0) return std::nullopt;
  std::vector<std::string_view> views;
  views.reserve(static_cast<size_t>(dictionary.length()));
  // Strings are binaries of the same layout: one reader per offset width, one for views.
  auto read = [&](const auto& values) {
    for (int64_t i = 0; i < values.length(); ++i) views.push_back(values.GetView(i));
  };
  switch (dictionary.type_id()) {
    case arrow::Type::STRING:
    case arrow::Type::BINARY: read(static_cast<const arrow::BinaryArray&>(dictionary)); break;
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      read(static_cast<const arrow::LargeBinaryArray&>(dictionary));
      break;
    case arrow::Type::STRING_VIEW:
    case arrow::Type::BINARY_VIEW:
      read(static_cast<const arrow::BinaryViewArray&>(dictionary));
      break;
    default: return std::nullopt;
  }
  return views;
}

// Write the strings the rows refer to into `offsets` (one more than the rows) and `data`
// (TotalLength() bytes, then kShortValue bytes of slack). Dictionaries of values of at most
// kShortValue bytes copy each value as one 8-byte word, without a call or a branch per row.
constexpr size_t kShortValue = 8;

template <typename Index>
void ExpandWith(const arrow::ArrayData& indices, const std::vector<std::string_view>& views,
                int32_t* offsets, uint8_t* data) {
  const Index* index = indices.GetValues<Index>(1);
  const uint8_t* validity = indices.MayHaveNulls() ? indices.GetValues<uint8_t>(0, 0) : nullptr;
  const int64_t offset = indices.offset;
  size_t longest = 0;
  for (const auto& view : views) longest = std::max(longest, view.size());
  int32_t position = 0;
  offsets[0] = 0;
  if (longest <= kShortValue) {
    // Entry 0 stands for NULL rows too, so there is one even when the dictionary is empty.
    std::vector<uint64_t> words(std::max<size_t>(views.size(), 1), 0);
    std::vector<int32_t> lengths(words.size(), 0);
    for (size_t i = 0; i < views.size(); ++i) {
      std::memcpy(&words[i], views[i].data(), views[i].size());
      lengths[i] = static_cast<int32_t>(views[i].size());
    }
    for (int64_t row = 0; row < indices.length; ++row) {
      const bool valid = validity == nullptr || arrow::bit_util::GetBit(validity, offset + row);
      const size_t i = valid ? static_cast<size_t>(index[row]) : 0;
      std::memcpy(data + position, &words[i], sizeof(uint64_t));
      position += valid ? lengths[i] : 0;
      offsets[row + 1] = position;
    }
    return;
  }
  for (int64_t row = 0; row < indices.length; ++row) {
    if (validity == nullptr || arrow::bit_util::GetBit(validity, offset + row)) {
      const std::string_view& value = views[static_cast<size_t>(index[row])];
      std::memcpy(data + position, value.data(), value.size());
      position += static_cast<int32_t>(value.size());
    }
    offsets[row + 1] = position;
  }
}

// The total length of the strings the rows refer to, or -1 when an index is out of range.
template <typename Index>
int64_t TotalLength(const arrow::ArrayData& indices, const std::vector<std::string_view>& views) {
  const Index* index = indices.GetValues<Index>(1);
  const uint8_t* validity = indices.GetValues<uint8_t>(0, 0);
  const int64_t size = static_cast<int64_t>(views.size());
  int64_t total = 0;
  for (int64_t row = 0; row < indices.length; ++row) {
    if (validity != nullptr && !arrow::bit_util::GetBit(validity, indices.offset + row)) continue;
    const int64_t i = static_cast<int64_t>(index[row]);
    if (i < 0 || i >= size) return -1;
    total += static_cast<int64_t>(views[static_cast<size_t>(i)].size());
  }
  return total;
}

template <typename Index>
arrow::Result<std::shared_ptr<arrow::Array>> Expand(const arrow::ArrayData& indices,
                                                    const std::vector<std::string_view>& views,
                                                    const std::shared_ptr<arrow::DataType>& type) {
  const int64_t total = TotalLength<Index>(indices, views);
  if (total < 0) {
    return arrow::Status::Invalid("A dictionary index is outside its dictionary of ", views.size(),
                                  " values.");
  }
  if (total > std::numeric_limits<int32_t>::max()) return nullptr;
  ARROW_ASSIGN_OR_RAISE(auto offsets, arrow::AllocateBuffer((indices.length + 1) * 4));
  ARROW_ASSIGN_OR_RAISE(auto data, arrow::AllocateBuffer(total + kShortValue));
  ExpandWith<Index>(indices, views, offsets->mutable_data_as<int32_t>(), data->mutable_data());
  std::shared_ptr<arrow::Buffer> values = arrow::SliceBuffer(std::move(data), 0, total);
  std::shared_ptr<arrow::Buffer> validity;
  if (indices.MayHaveNulls()) {
    ARROW_ASSIGN_OR_RAISE(validity, arrow::internal::CopyBitmap(arrow::default_memory_pool(),
                                                                indices.buffers[0]->data(),
                                                                indices.offset, indices.length));
  }
  return arrow::MakeArray(arrow::ArrayData::Make(
      type, indices.length, {std::move(validity), std::move(offsets), std::move(values)},
      indices.null_count));
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> ExpandDictionaryStrings(
    const arrow::Array& column, const std::shared_ptr<arrow::DataType>& type) {
  if (column.type_id() != arrow::Type::DICTIONARY ||
      (type->id() != arrow::Type::STRING && type->id() != arrow::Type::BINARY)) {
    return nullptr;
  }
  const auto& dictionary_array = static_cast<const arrow::DictionaryArray&>(column);
  // Binary values are not checked for UTF-8: only strings become strings.
  if (IsStringFamily(dictionary_array.dictionary()->type_id()) !=
      (type->id() == arrow::Type::STRING)) {
    return nullptr;
  }
  auto views = DictionaryViews(*dictionary_array.dictionary());
  if (!views) return nullptr;
  const arrow::ArrayData& indices = *dictionary_array.indices()->data();
  switch (indices.type->id()) {
    case arrow::Type::INT8: return Expand<int8_t>(indices, *views, type);
    case arrow::Type::INT16: return Expand<int16_t>(indices, *views, type);
    case arrow::Type::INT32: return Expand<int32_t>(indices, *views, type);
    case arrow::Type::INT64: return Expand<int64_t>(indices, *views, type);
    default: return nullptr;
  }
}

}  // namespace parley
