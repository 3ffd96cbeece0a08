// String kernels with Spark's character positions: substring with any (non-constant)
// position and length, and locate. Positions count UTF-8 characters, not bytes.
#include <algorithm>
#include <limits>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "functions/kernel_support.h"
#include "functions/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;
using kernels::StringColumn;

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

int64_t CharCount(std::string_view text) {
  return std::count_if(text.begin(), text.end(), [](char c) { return !IsContinuation(c); });
}

// Byte offset of character `index` (0-based) of `text`; text.size() past the end.
size_t ByteOffset(std::string_view text, int64_t index) {
  size_t offset = 0;
  for (int64_t seen = 0; offset < text.size(); ++offset) {
    if (IsContinuation(text[offset])) continue;
    if (seen++ == index) return offset;
  }
  return text.size();
}

// Spark's substring: characters [start, end) where a positive pos counts from 1, a negative
// one from the end, and 0 is the first character.
std::string_view Substring(std::string_view text, int64_t pos, int64_t length) {
  int64_t chars = CharCount(text);
  int64_t start = pos > 0 ? pos - 1 : pos < 0 ? chars + pos : 0;
  int64_t end = start + length;
  start = std::max<int64_t>(start, 0);
  if (start >= end) return {};
  size_t from = ByteOffset(text, start);
  size_t to = ByteOffset(text, end);
  return text.substr(from, to - from);
}

Status SubstringExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn text(batch[0]);
  Column<int32_t> pos(batch[1]);
  Column<int32_t> length(batch[2]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!text.IsValid(row) || !pos.IsValid(row) || !length.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(builder.Append(Substring(text.Value(row), pos.Value(row), length.Value(row))));
    }
  }
  return kernels::FinishInto(&builder, out);
}

// Spark's locate: an empty needle is found at 1 wherever the search starts.
int32_t Locate(std::string_view needle, std::string_view haystack, int64_t start) {
  if (start < 1) return 0;
  if (needle.empty()) return 1;
  size_t from = ByteOffset(haystack, start - 1);
  size_t found = haystack.find(needle, from);
  if (found == std::string_view::npos) return 0;
  return static_cast<int32_t>(CharCount(haystack.substr(0, found)) + 1);
}

Status LocateExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn needle(batch[0]);
  StringColumn haystack(batch[1]);
  Column<int32_t> start(batch[2]);
  arrow::Int32Builder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!start.IsValid(row)) {
      builder.UnsafeAppend(0);
    } else if (!needle.IsValid(row) || !haystack.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(Locate(needle.Value(row), haystack.Value(row), start.Value(row)));
    }
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterStringKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_substring",
                                  {arrow::utf8(), arrow::int32(), arrow::int32()}, arrow::utf8(),
                                  SubstringExec, "Spark's substring"));
  return AddFunction(registry, "parley_locate", {arrow::utf8(), arrow::utf8(), arrow::int32()},
                     arrow::int32(), LocateExec, "Spark's locate");
}

}  // namespace kernels
}  // namespace parley
