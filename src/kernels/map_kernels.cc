// Spark's map constructors over each row: map_from_arrays, map_from_entries, map_concat and
// str_to_map. Their keys are checked as a map's are (kernels/scalar_keys.h: NULL_MAP_KEY,
// DUPLICATED_MAP_KEY).
//   parley_map_from_arrays(list<k>, list<v>) -> map<k, v>
//   parley_map_from_entries(list<struct<k, v>>) -> map<k, v>: NULL when an entry is NULL
//   parley_map_concat(map<k, v>...) -> map<k, v>: NULL when one of the maps is
//   parley_str_to_map(utf8 text, utf8 pair_delimiter, utf8 key_value_delimiter)
//     -> map<utf8, utf8>: the text split by the two regular expressions
#include <fmt/format.h>

#include <regex>

#include "arrow/array.h"
#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_nested.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/concatenate.h"
#include "arrow/compute/api.h"
#include "kernels/kernel_support.h"
#include "kernels/scalar_keys.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using ArrayPtr = std::shared_ptr<arrow::Array>;

// A map per row from the key and value positions each row picks (`keys_at` / `items_at` into
// `keys` / `items`, a row's run ended by `ends`), NULL where `valid` is false.
struct MapParts {
  std::vector<int64_t> keys_at;
  std::vector<int64_t> items_at;
  std::vector<int32_t> ends;
  std::vector<bool> valid;
};

Result<ArrayPtr> BuildMap(const MapParts& parts, const ArrayPtr& keys, const ArrayPtr& items,
                          const std::shared_ptr<arrow::DataType>& type) {
  ARROW_ASSIGN_OR_RAISE(auto taken_keys, kernels::TakeRows(keys, parts.keys_at));
  ARROW_ASSIGN_OR_RAISE(auto taken_items, kernels::TakeRows(items, parts.items_at));
  int32_t begin = 0;
  for (int32_t end : parts.ends) {
    ARROW_RETURN_NOT_OK(kernels::CheckMapKeys(*taken_keys, begin, end));
    begin = end;
  }
  arrow::Int32Builder offsets;
  arrow::TypedBufferBuilder<bool> validity;
  ARROW_RETURN_NOT_OK(offsets.Append(0));
  for (size_t row = 0; row < parts.ends.size(); ++row) {
    ARROW_RETURN_NOT_OK(offsets.Append(parts.ends[row]));
    ARROW_RETURN_NOT_OK(validity.Append(parts.valid[row]));
  }
  ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
  ARROW_ASSIGN_OR_RAISE(auto bitmap, validity.Finish());
  return std::make_shared<arrow::MapArray>(type, static_cast<int64_t>(parts.ends.size()),
                                           offset_array->data()->buffers[1], taken_keys,
                                           taken_items, bitmap);
}

Status MapFromArraysExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto key_lists, kernels::ArgumentArray(batch, 0));
  ARROW_ASSIGN_OR_RAISE(auto item_lists, kernels::ArgumentArray(batch, 1));
  const auto& keys = static_cast<const arrow::ListArray&>(*key_lists);
  const auto& items = static_cast<const arrow::ListArray&>(*item_lists);
  MapParts parts;
  for (int64_t row = 0; row < batch.length; ++row) {
    bool valid = keys.IsValid(row) && items.IsValid(row);
    if (valid && keys.value_length(row) != items.value_length(row)) {
      return MakeError(arrow::StatusCode::Invalid, "_LEGACY_ERROR_TEMP_2128",
                       "The key array and value array of MapData must have the same length.");
    }
    for (int64_t i = 0; valid && i < keys.value_length(row); ++i) {
      parts.keys_at.push_back(keys.value_offset(row) + i);
      parts.items_at.push_back(items.value_offset(row) + i);
    }
    parts.ends.push_back(static_cast<int32_t>(parts.keys_at.size()));
    parts.valid.push_back(valid);
  }
  ARROW_ASSIGN_OR_RAISE(
      auto result, BuildMap(parts, keys.values(), items.values(), out->type()->GetSharedPtr()));
  out->value = result->data();
  return Status::OK();
}

Status MapFromEntriesExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto entry_lists, kernels::ArgumentArray(batch, 0));
  const auto& lists = static_cast<const arrow::ListArray&>(*entry_lists);
  const auto& entries = static_cast<const arrow::StructArray&>(*lists.values());
  MapParts parts;
  for (int64_t row = 0; row < batch.length; ++row) {
    bool valid = lists.IsValid(row);
    for (int64_t i = 0; valid && i < lists.value_length(row); ++i) {
      valid = entries.IsValid(lists.value_offset(row) + i);
    }
    for (int64_t i = 0; valid && i < lists.value_length(row); ++i) {
      parts.keys_at.push_back(lists.value_offset(row) + i);
      parts.items_at.push_back(lists.value_offset(row) + i);
    }
    parts.ends.push_back(static_cast<int32_t>(parts.keys_at.size()));
    parts.valid.push_back(valid);
  }
  ARROW_ASSIGN_OR_RAISE(auto result, BuildMap(parts, entries.field(0), entries.field(1),
                                              out->type()->GetSharedPtr()));
  out->value = result->data();
  return Status::OK();
}

Status MapConcatExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  std::vector<ArrayPtr> maps;
  arrow::ArrayVector keys, items;
  std::vector<int64_t> base;  // where map i's entries start in the concatenated entries
  int64_t total = 0;
  for (int i = 0; i < batch.num_values(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto map, kernels::ArgumentArray(batch, i));
    const auto& typed = static_cast<const arrow::MapArray&>(*map);
    keys.push_back(typed.keys());
    items.push_back(typed.items());
    base.push_back(total);
    total += typed.keys()->length();
    maps.push_back(std::move(map));
  }
  ARROW_ASSIGN_OR_RAISE(auto all_keys, arrow::Concatenate(keys));
  ARROW_ASSIGN_OR_RAISE(auto all_items, arrow::Concatenate(items));
  MapParts parts;
  for (int64_t row = 0; row < batch.length; ++row) {
    bool valid = true;
    for (const auto& map : maps) valid = valid && map->IsValid(row);
    for (size_t m = 0; valid && m < maps.size(); ++m) {
      const auto& typed = static_cast<const arrow::MapArray&>(*maps[m]);
      for (int64_t i = typed.value_offset(row); i < typed.value_offset(row + 1); ++i) {
        parts.keys_at.push_back(base[m] + i);
        parts.items_at.push_back(base[m] + i);
      }
    }
    parts.ends.push_back(static_cast<int32_t>(parts.keys_at.size()));
    parts.valid.push_back(valid);
  }
  ARROW_ASSIGN_OR_RAISE(auto result,
                        BuildMap(parts, all_keys, all_items, out->type()->GetSharedPtr()));
  out->value = result->data();
  return Status::OK();
}

// `text` split at each match of `pattern` (up to `limit` parts when positive), as Java's
// String.split(regex, limit) with every trailing empty part kept.
std::vector<std::string> Split(const std::string& text, const std::regex& pattern, int limit) {
  std::vector<std::string> parts;
  auto begin = text.cbegin();
  for (auto it = std::sregex_iterator(text.cbegin(), text.cend(), pattern);
       it != std::sregex_iterator(); ++it) {
    if (limit > 0 && static_cast<int>(parts.size()) == limit - 1) break;
    if (it->length(0) == 0 && it->position(0) == 0) continue;  // no empty first part
    parts.emplace_back(begin, text.cbegin() + it->position(0));
    begin = text.cbegin() + it->position(0) + it->length(0);
  }
  parts.emplace_back(begin, text.cend());
  return parts;
}

Status StrToMapExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  kernels::StringColumn text(batch[0]);
  kernels::StringColumn pair_delimiter(batch[1]);
  kernels::StringColumn key_value_delimiter(batch[2]);
  arrow::StringBuilder keys, items;
  MapParts parts;
  int64_t entries = 0;
  for (int64_t row = 0; row < batch.length; ++row) {
    bool valid =
        text.IsValid(row) && pair_delimiter.IsValid(row) && key_value_delimiter.IsValid(row);
    if (valid) {
      std::regex pairs_pattern, kv_pattern;
      try {
        pairs_pattern = std::regex(std::string(pair_delimiter.Value(row)));
        kv_pattern = std::regex(std::string(key_value_delimiter.Value(row)));
      } catch (const std::regex_error&) {
        return MakeError(arrow::StatusCode::Invalid, "INVALID_PARAMETER_VALUE.PATTERN",
                         fmt::format("The value of parameter(s) `regexp` in `str_to_map` is "
                                     "invalid: '{}' or '{}' is not a regular expression.",
                                     pair_delimiter.Value(row), key_value_delimiter.Value(row)));
      }
      for (const auto& pair : Split(std::string(text.Value(row)), pairs_pattern, -1)) {
        auto kv = Split(pair, kv_pattern, 2);
        ARROW_RETURN_NOT_OK(keys.Append(kv[0]));
        ARROW_RETURN_NOT_OK(kv.size() > 1 ? items.Append(kv[1]) : items.AppendNull());
        parts.keys_at.push_back(entries);
        parts.items_at.push_back(entries);
        ++entries;
      }
    }
    parts.ends.push_back(static_cast<int32_t>(parts.keys_at.size()));
    parts.valid.push_back(valid);
  }
  ARROW_ASSIGN_OR_RAISE(auto key_array, keys.Finish());
  ARROW_ASSIGN_OR_RAISE(auto item_array, items.Finish());
  ARROW_ASSIGN_OR_RAISE(auto result, BuildMap(parts, key_array, item_array,
                                              arrow::map(arrow::utf8(), arrow::utf8())));
  out->value = result->data();
  return Status::OK();
}

Result<arrow::TypeHolder> MapOfLists(cp::KernelContext*, const std::vector<arrow::TypeHolder>& in) {
  return arrow::map(in[0].type->field(0)->type(), in[1].type->field(0)->type());
}

Result<arrow::TypeHolder> MapOfEntries(cp::KernelContext*,
                                       const std::vector<arrow::TypeHolder>& in) {
  const auto& entry = *in[0].type->field(0)->type();
  return arrow::map(entry.field(0)->type(), entry.field(1)->type());
}

Result<arrow::TypeHolder> FirstType(cp::KernelContext*, const std::vector<arrow::TypeHolder>& in) {
  return in[0];
}

}  // namespace

namespace kernels {

Status RegisterMapKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddAnyInputFunction(registry, "parley_map_from_arrays", cp::Arity::Binary(),
                                          cp::OutputType(MapOfLists), MapFromArraysExec,
                                          "A map of keys and values, per row"));
  ARROW_RETURN_NOT_OK(AddAnyInputFunction(registry, "parley_map_from_entries", cp::Arity::Unary(),
                                          cp::OutputType(MapOfEntries), MapFromEntriesExec,
                                          "A map of key-value structs, per row"));
  ARROW_RETURN_NOT_OK(AddAnyInputFunction(registry, "parley_map_concat", cp::Arity::VarArgs(1),
                                          cp::OutputType(FirstType), MapConcatExec,
                                          "The maps' entries in one map, per row"));
  return AddAnyInputFunction(registry, "parley_str_to_map", cp::Arity::Ternary(),
                             cp::OutputType(arrow::map(arrow::utf8(), arrow::utf8())), StrToMapExec,
                             "Spark's str_to_map");
}

}  // namespace kernels
}  // namespace parley
