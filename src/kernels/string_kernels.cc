// String kernels with Spark's character positions: substring with any (non-constant)
// position and length, and locate. Positions count UTF-8 characters, not bytes.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/java_number_text.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

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
      ARROW_RETURN_NOT_OK(
          builder.Append(Substring(text.Value(row), pos.Value(row), length.Value(row))));
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

// Spark's lpad / rpad: cut to `length` characters, or filled to it with as much of `pad`
// repeated as fits (before the text for lpad); an empty pad only cuts.
std::string Pad(std::string_view text, int64_t length, std::string_view pad, bool left) {
  if (length <= 0) return {};
  int64_t chars = CharCount(text);
  if (chars >= length || pad.empty()) return std::string(text.substr(0, ByteOffset(text, length)));
  int64_t missing = length - chars;
  int64_t pad_chars = CharCount(pad);
  std::string filler;
  for (int64_t whole = missing / pad_chars; whole > 0; --whole) filler += pad;
  filler += pad.substr(0, ByteOffset(pad, missing % pad_chars));
  return left ? filler + std::string(text) : std::string(text) + filler;
}

template <bool kLeft>
Status PadExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn text(batch[0]);
  Column<int32_t> length(batch[1]);
  StringColumn pad(batch[2]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!text.IsValid(row) || !length.IsValid(row) || !pad.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(
          builder.Append(Pad(text.Value(row), length.Value(row), pad.Value(row), kLeft)));
    }
  }
  return kernels::FinishInto(&builder, out);
}

// Spark's write-side check of a CHAR(n) / VARCHAR(n) column: a value of more than `length`
// characters loses as many trailing spaces as it has beyond the limit and fails with
// EXCEED_LIMIT_LENGTH when it is still too long.
Result<std::string_view> WithinLength(std::string_view text, int64_t length) {
  int64_t chars = CharCount(text);
  size_t end = text.size();
  while (chars > length && end > 0 && text[end - 1] == ' ') {
    --end;
    --chars;
  }
  if (chars > length) {
    return MakeError(arrow::StatusCode::Invalid, "EXCEED_LIMIT_LENGTH",
                     fmt::format("Exceeds char/varchar type length limitation: {}.", length));
  }
  return text.substr(0, end);
}

Status CharVarcharWriteExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                            cp::ExecResult* out) {
  StringColumn text(batch[0]);
  Column<int32_t> length(batch[1]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!text.IsValid(row) || !length.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto value, WithinLength(text.Value(row), length.Value(row)));
    ARROW_RETURN_NOT_OK(builder.Append(value));
  }
  return kernels::FinishInto(&builder, out);
}

enum class Match { kStartsWith, kEndsWith, kContains };

// Whether each text starts with, ends with or contains the other column's string.
template <Match kMatch>
Status MatchExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn text(batch[0]);
  StringColumn other(batch[1]);
  arrow::BooleanBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!text.IsValid(row) || !other.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    std::string_view value = text.Value(row);
    std::string_view part = other.Value(row);
    bool found = kMatch == Match::kStartsWith ? value.starts_with(part)
                 : kMatch == Match::kEndsWith ? value.ends_with(part)
                                              : value.find(part) != std::string_view::npos;
    builder.UnsafeAppend(found);
  }
  return kernels::FinishInto(&builder, out);
}

// Every occurrence of `search` in `text` replaced, left to right; an empty search changes
// nothing, as in Spark.
std::string ReplaceAll(std::string_view text, std::string_view search,
                       std::string_view replacement) {
  if (search.empty()) return std::string(text);
  std::string out;
  size_t from = 0;
  for (size_t at = text.find(search); at != std::string_view::npos; at = text.find(search, from)) {
    out.append(text.substr(from, at - from));
    out.append(replacement);
    from = at + search.size();
  }
  out.append(text.substr(from));
  return out;
}

Status ReplaceExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn text(batch[0]);
  StringColumn search(batch[1]);
  StringColumn replacement(batch[2]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!text.IsValid(row) || !search.IsValid(row) || !replacement.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(
          builder.Append(ReplaceAll(text.Value(row), search.Value(row), replacement.Value(row))));
    }
  }
  return kernels::FinishInto(&builder, out);
}

// A float or double column as Spark's text of each value.
template <typename T>
Status FloatTextExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  return kernels::WriteTextOfEach<T>(batch, ctx, out,
                                     [](T value) { return JavaFloatingPointText(value); });
}

}  // namespace

namespace kernels {

Status RegisterStringKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_substring",
                                  {arrow::utf8(), arrow::int32(), arrow::int32()}, arrow::utf8(),
                                  SubstringExec, "Spark's substring"));
  auto float_text = std::make_shared<cp::ScalarFunction>(
      "parley_float_text", cp::Arity::Unary(), cp::FunctionDoc("Spark's text of a float", "", {}));
  using Exec = cp::ArrayKernelExec;
  for (auto [type, exec] :
       {std::pair<std::shared_ptr<arrow::DataType>, Exec>{arrow::float32(), FloatTextExec<float>},
        std::pair<std::shared_ptr<arrow::DataType>, Exec>{arrow::float64(),
                                                          FloatTextExec<double>}}) {
    cp::ScalarKernel kernel({type}, arrow::utf8(), exec);
    kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
    kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
    ARROW_RETURN_NOT_OK(float_text->AddKernel(std::move(kernel)));
  }
  ARROW_RETURN_NOT_OK(registry->AddFunction(std::move(float_text), /*allow_overwrite=*/true));
  for (auto [name, exec] : {std::pair<const char*, cp::ArrayKernelExec>{
                                "parley_starts_with", MatchExec<Match::kStartsWith>},
                            {"parley_ends_with", MatchExec<Match::kEndsWith>},
                            {"parley_contains", MatchExec<Match::kContains>}}) {
    ARROW_RETURN_NOT_OK(AddFunction(registry, name, {arrow::utf8(), arrow::utf8()},
                                    arrow::boolean(), exec, "Spark's string predicate"));
  }
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_replace",
                                  {arrow::utf8(), arrow::utf8(), arrow::utf8()}, arrow::utf8(),
                                  ReplaceExec, "Spark's replace"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_lpad",
                                  {arrow::utf8(), arrow::int32(), arrow::utf8()}, arrow::utf8(),
                                  PadExec<true>, "Spark's lpad"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_rpad",
                                  {arrow::utf8(), arrow::int32(), arrow::utf8()}, arrow::utf8(),
                                  PadExec<false>, "Spark's rpad"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_char_varchar_write",
                                  {arrow::utf8(), arrow::int32()}, arrow::utf8(),
                                  CharVarcharWriteExec, "Spark's CHAR/VARCHAR length check"));
  return AddFunction(registry, "parley_locate", {arrow::utf8(), arrow::utf8(), arrow::int32()},
                     arrow::int32(), LocateExec, "Spark's locate");
}

}  // namespace kernels
}  // namespace parley
