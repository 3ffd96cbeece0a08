// Row kernels of Spark's regexp functions that Arrow's regex kernels do not cover:
//   parley_regexp_extract_all(utf8 text, utf8 pattern, int32 group) -> list<utf8>: the group of
//     every match, left to right ('' where the group took no part); a pattern that does not
//     compile is INVALID_PARAMETER_VALUE.PATTERN;
//   parley_char_position(utf8 text, int32 byte_index) -> int32: the 1-based character position
//     of a byte index, 0 for a negative index (no match).
#include <fmt/format.h>

#include <optional>
#include <regex>

#include "arrow/array/builder_nested.h"
#include "kernels/kernel_support.h"
#include "kernels/row_kernel.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

Status ExtractAllExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn texts(batch[0]);
  StringColumn patterns(batch[1]);
  Column<int32_t> groups(batch[2]);
  arrow::ListBuilder builder(ctx->memory_pool(), std::make_shared<arrow::StringBuilder>());
  auto* values = static_cast<arrow::StringBuilder*>(builder.value_builder());
  std::optional<std::string> compiled_text;
  std::regex compiled;
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!texts.IsValid(row) || !patterns.IsValid(row) || !groups.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::string pattern(patterns.Value(row));
    if (compiled_text != pattern) {
      try {
        compiled = std::regex(pattern);
      } catch (const std::regex_error&) {
        return MakeError(arrow::StatusCode::Invalid, "INVALID_PARAMETER_VALUE.PATTERN",
                         fmt::format("The value of parameter(s) `regexp` in `regexp_extract_all` "
                                     "is invalid: '{}'.",
                                     pattern));
      }
      compiled_text = pattern;
    }
    std::string_view text = texts.Value(row);
    size_t group = static_cast<size_t>(groups.Value(row));
    ARROW_RETURN_NOT_OK(builder.Append());
    for (std::cregex_iterator it(text.data(), text.data() + text.size(), compiled), end; it != end;
         ++it) {
      const auto& match = *it;
      ARROW_RETURN_NOT_OK(values->Append(
          group < match.size() && match[group].matched ? match[group].str() : std::string()));
    }
  }
  return FinishInto(&builder, out);
}

}  // namespace

Status RegisterRegexpKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(
      registry, "parley_regexp_extract_all",
      {cp::InputType(arrow::utf8()), cp::InputType(arrow::utf8()), cp::InputType(arrow::int32())},
      cp::OutputType(arrow::list(arrow::utf8())), ExtractAllExec,
      "The group of every match of a regular expression"));
  return RegisterRowFunction<int32_t, std::string_view, int32_t>(
      registry, "parley_char_position",
      [](std::string_view text, int32_t byte_index) -> std::optional<int32_t> {
        if (byte_index < 0) return 0;
        int32_t characters = 0;
        for (int32_t i = 0; i < byte_index && i < static_cast<int32_t>(text.size()); ++i) {
          if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++characters;
        }
        return characters + 1;
      },
      "The 1-based character position of a byte index");
}

}  // namespace parley::kernels
