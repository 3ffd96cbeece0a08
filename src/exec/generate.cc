#include "exec/generate.h"

#include <algorithm>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/concatenate.h"
#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "kernels/kernel_support.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using ArrayPtr = std::shared_ptr<arrow::Array>;

Result<ArrayPtr> InputColumn(const arrow::Table& input, const std::string& name) {
  auto column = input.GetColumnByName(name);
  if (column == nullptr) return Status::Invalid("Generate: no input field ", name);
  if (column->num_chunks() == 1) return column->chunk(0);
  if (column->num_chunks() == 0) return arrow::MakeEmptyArray(column->type());
  return arrow::Concatenate(column->chunks());
}

// The generated rows: the input row of each, and the columns made.
struct Generated {
  std::vector<int64_t> parents;
  std::vector<ArrayPtr> columns;
};

// explode / posexplode / inline of an array or map column.
Result<Generated> ExplodeRows(const std::string& generator, const ArrayPtr& container) {
  const bool outer =
      generator.size() > 6 && generator.compare(generator.size() - 6, 6, "_outer") == 0;
  const bool positions = generator.rfind("posexplode", 0) == 0;
  const bool inline_rows = generator.rfind("inline", 0) == 0;
  const auto& lists = static_cast<const arrow::BaseListArray<arrow::ListType>&>(*container);
  Generated out;
  std::vector<int64_t> element_at;
  arrow::Int32Builder pos;
  for (int64_t row = 0; row < container->length(); ++row) {
    int64_t length = container->IsValid(row) ? lists.value_length(row) : 0;
    if (length == 0 && outer) {
      out.parents.push_back(row);
      element_at.push_back(-1);
      ARROW_RETURN_NOT_OK(pos.AppendNull());
    }
    for (int64_t i = 0; i < length; ++i) {
      out.parents.push_back(row);
      element_at.push_back(lists.value_offset(row) + i);
      ARROW_RETURN_NOT_OK(pos.Append(static_cast<int32_t>(i)));
    }
  }
  if (positions) {
    ARROW_ASSIGN_OR_RAISE(auto pos_array, pos.Finish());
    out.columns.push_back(std::move(pos_array));
  }
  if (container->type_id() == arrow::Type::MAP) {
    const auto& maps = static_cast<const arrow::MapArray&>(*container);
    ARROW_ASSIGN_OR_RAISE(auto keys, kernels::TakeRows(maps.keys(), element_at));
    ARROW_ASSIGN_OR_RAISE(auto items, kernels::TakeRows(maps.items(), element_at));
    out.columns.push_back(std::move(keys));
    out.columns.push_back(std::move(items));
    return out;
  }
  ARROW_ASSIGN_OR_RAISE(auto elements, kernels::TakeRows(lists.values(), element_at));
  if (!inline_rows) {
    out.columns.push_back(std::move(elements));
    return out;
  }
  // inline: each struct's fields, a NULL struct (or none) a row of NULLs.
  const auto& structs = static_cast<const arrow::StructArray&>(*elements);
  for (int f = 0; f < structs.num_fields(); ++f) {
    ARROW_ASSIGN_OR_RAISE(auto field, structs.GetFlattenedField(f));
    out.columns.push_back(std::move(field));
  }
  return out;
}

// stack(n, v1, ..., vk): `values` are the columns v1..vk; `types` the generated columns' types.
Result<Generated> StackRows(const arrow::Array& count, const std::vector<ArrayPtr>& values,
                            const std::vector<std::shared_ptr<arrow::DataType>>& types) {
  const int64_t rows = count.length();
  const int64_t n = static_cast<const arrow::Int32Array&>(count).Value(0);
  const size_t width = types.size();
  Generated out;
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t i = 0; i < n; ++i) out.parents.push_back(row);
  }
  for (size_t j = 0; j < width; ++j) {
    // Column j of generated row (row, i) is value i * width + j of the input row.
    arrow::ArrayVector pieces;
    std::vector<int64_t> pick;
    for (int64_t i = 0; i < n; ++i) {
      size_t index = static_cast<size_t>(i) * width + j;
      if (index < values.size()) {
        ARROW_ASSIGN_OR_RAISE(auto cast, cp::Cast(*values[index], types[j]));
        pieces.push_back(cast);
      } else {
        ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(types[j], rows));
        pieces.push_back(nulls);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto all, arrow::Concatenate(pieces));
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t i = 0; i < n; ++i) pick.push_back(i * rows + row);
    }
    ARROW_ASSIGN_OR_RAISE(auto column, kernels::TakeRows(all, pick));
    out.columns.push_back(std::move(column));
  }
  return out;
}

// range(start, end, step) of each input row: start, start + step, ... short of end.
Result<Generated> RangeRows(const arrow::Array& start, const arrow::Array& end,
                            const arrow::Array& step) {
  const auto& starts = static_cast<const arrow::Int64Array&>(start);
  const auto& ends = static_cast<const arrow::Int64Array&>(end);
  const auto& steps = static_cast<const arrow::Int64Array&>(step);
  Generated out;
  arrow::Int64Builder ids;
  for (int64_t row = 0; row < start.length(); ++row) {
    int64_t by = steps.Value(row);
    for (int64_t id = starts.Value(row); by > 0 ? id < ends.Value(row) : id > ends.Value(row);) {
      out.parents.push_back(row);
      ARROW_RETURN_NOT_OK(ids.Append(id));
      if (__builtin_add_overflow(id, by, &id)) break;
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto column, ids.Finish());
  out.columns.push_back(std::move(column));
  return out;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> ComputeGenerate(const PlanNode& node,
                                                      const std::shared_ptr<arrow::Table>& input) {
  const auto& child_fields = node.children[0]->output;
  const size_t generated_count = node.output.size() - child_fields.size();
  Generated generated;
  if (node.generator == "range") {
    std::vector<ArrayPtr> bounds;
    for (const auto& name : node.generator_args) {
      ARROW_ASSIGN_OR_RAISE(auto bound, InputColumn(*input, name));
      bounds.push_back(std::move(bound));
    }
    ARROW_ASSIGN_OR_RAISE(generated, RangeRows(*bounds[0], *bounds[1], *bounds[2]));
  } else if (node.generator == "stack") {
    ARROW_ASSIGN_OR_RAISE(auto count, InputColumn(*input, node.generator_args[0]));
    std::vector<ArrayPtr> values;
    for (size_t i = 1; i < node.generator_args.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto value, InputColumn(*input, node.generator_args[i]));
      values.push_back(std::move(value));
    }
    std::vector<std::shared_ptr<arrow::DataType>> types;
    for (size_t i = child_fields.size(); i < node.output.size(); ++i) {
      types.push_back(node.output[i].type);
    }
    ARROW_ASSIGN_OR_RAISE(generated, StackRows(*count, values, types));
  } else {
    ARROW_ASSIGN_OR_RAISE(auto container, InputColumn(*input, node.generator_args[0]));
    ARROW_ASSIGN_OR_RAISE(generated, ExplodeRows(node.generator, container));
  }
  if (generated.columns.size() != generated_count) {
    return Status::Invalid("Generate: ", generated.columns.size(), " columns made, ",
                           generated_count, " planned");
  }
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns;
  for (size_t i = 0; i < child_fields.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto column, InputColumn(*input, child_fields[i].name));
    ARROW_ASSIGN_OR_RAISE(auto taken, kernels::TakeRows(column, generated.parents));
    fields.push_back(arrow::field(child_fields[i].name, taken->type()));
    columns.push_back(std::make_shared<arrow::ChunkedArray>(taken));
  }
  for (size_t i = 0; i < generated_count; ++i) {
    const auto& field = node.output[child_fields.size() + i];
    auto column = generated.columns[i];
    if (!column->type()->Equals(*field.type)) {
      ARROW_ASSIGN_OR_RAISE(column, cp::Cast(*column, field.type));
    }
    fields.push_back(arrow::field(field.name, field.type));
    columns.push_back(std::make_shared<arrow::ChunkedArray>(column));
  }
  return arrow::Table::Make(arrow::schema(fields), columns,
                            static_cast<int64_t>(generated.parents.size()));
}

}  // namespace parley
