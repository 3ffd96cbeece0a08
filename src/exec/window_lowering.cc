// Window node execution: one sort per window, partitions and peer groups, then the calls.
#include "exec/window_lowering.h"

#include <fmt/format.h>

#include <map>

#include "arrow/array.h"
#include "arrow/array/concatenate.h"
#include "arrow/array/util.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "exec/window_functions.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

using ArrayPtr = std::shared_ptr<arrow::Array>;

Result<ArrayPtr> ColumnOf(const arrow::Table& table, const std::string& name) {
  auto column = table.GetColumnByName(name);
  if (column == nullptr) return Status::Invalid("Window: no input column ", name);
  if (column->num_chunks() == 0) return arrow::MakeEmptyArray(column->type());
  if (column->num_chunks() == 1) return column->chunk(0);
  return arrow::Concatenate(column->chunks());
}

// Per row, whether it differs from the row before on any of `keys` (NULLs equal); row 0 does.
Result<std::vector<bool>> Breaks(const std::vector<ArrayPtr>& keys, int64_t rows) {
  std::vector<bool> breaks(rows, false);
  if (rows == 0) return breaks;
  breaks[0] = true;
  for (const auto& key : keys) {
    if (rows < 2) break;
    ArrayPtr current = key->Slice(1);
    ArrayPtr previous = key->Slice(0, rows - 1);
    ARROW_ASSIGN_OR_RAISE(auto equal, cp::CallFunction("equal", {current, previous}));
    ARROW_ASSIGN_OR_RAISE(auto current_null, cp::CallFunction("is_null", {current}));
    ARROW_ASSIGN_OR_RAISE(auto previous_null, cp::CallFunction("is_null", {previous}));
    ARROW_ASSIGN_OR_RAISE(auto both_null, cp::CallFunction("and", {current_null, previous_null}));
    ARROW_ASSIGN_OR_RAISE(auto same, cp::CallFunction("coalesce", {equal, both_null}));
    auto flags = std::static_pointer_cast<arrow::BooleanArray>(same.make_array());
    for (int64_t i = 0; i + 1 < rows; ++i) {
      if (!flags->Value(i)) breaks[i + 1] = true;
    }
  }
  return breaks;
}

// Group starts and ends from break flags.
void Groups(const std::vector<bool>& breaks, std::vector<int64_t>* start,
            std::vector<int64_t>* end) {
  const int64_t rows = static_cast<int64_t>(breaks.size());
  start->assign(rows, 0);
  end->assign(rows, rows);
  for (int64_t i = 0; i < rows; ++i) (*start)[i] = breaks[i] ? i : (*start)[i - 1];
  for (int64_t i = rows - 1; i >= 0; --i) {
    (*end)[i] = i + 1 < rows && !breaks[i + 1] ? (*end)[i + 1] : i + 1;
  }
}

// The single ORDER BY key as numbers, and per row the rows of its partition where it is set.
Status AddOrderValues(const ArrayPtr& key, bool ascending, WindowLayout* layout) {
  ArrayPtr numeric = key;
  if (key->type_id() == arrow::Type::DATE32) {
    ARROW_ASSIGN_OR_RAISE(numeric, cp::Cast(*key, arrow::int32()));
  }
  ARROW_ASSIGN_OR_RAISE(auto doubles, cp::Cast(*numeric, arrow::float64()));
  const auto& values = static_cast<const arrow::DoubleArray&>(*doubles);
  const int64_t rows = layout->size();
  layout->ascending = ascending;
  layout->order_value.resize(rows);
  layout->order_valid.resize(rows);
  for (int64_t i = 0; i < rows; ++i) {
    layout->order_valid[i] = values.IsValid(i);
    layout->order_value[i] = values.IsValid(i) ? values.Value(i) : 0;
  }
  // NULL keys sort together at one end of each partition.
  layout->valid_start.resize(rows);
  layout->valid_end.resize(rows);
  for (int64_t i = 0; i < rows;) {
    const int64_t start = layout->partition_start[i];
    const int64_t end = layout->partition_end[i];
    int64_t first = start;
    while (first < end && !layout->order_valid[first]) ++first;
    int64_t last = first;
    while (last < end && layout->order_valid[last]) ++last;
    for (int64_t row = start; row < end; ++row) {
      layout->valid_start[row] = first;
      layout->valid_end[row] = last;
    }
    i = end;
  }
  return Status::OK();
}

// The calls of `node` that share one window (PARTITION BY and ORDER BY), by position.
std::map<std::string, std::vector<size_t>> ByWindow(const PlanNode& node) {
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < node.window_calls.size(); ++i) {
    WindowCall key = node.window_calls[i];
    key.frame = WindowFrame();
    groups[key.WindowText()].push_back(i);
  }
  return groups;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> ComputeWindow(const PlanNode& node,
                                                    const std::shared_ptr<arrow::Table>& input) {
  const int64_t rows = input->num_rows();
  std::vector<ArrayPtr> results(node.window_calls.size());
  for (const auto& [text, calls] : ByWindow(node)) {
    const WindowCall& window = node.window_calls[calls.front()];
    // Window order: partition keys, then the ORDER BY keys; Arrow's sort is stable.
    std::vector<cp::SortKey> keys;
    for (const auto& key : window.partition_by) {
      keys.emplace_back(key->field, cp::SortOrder::Ascending, cp::NullPlacement::AtStart);
    }
    for (const auto& key : window.order_by) {
      keys.emplace_back(key.expr->field,
                        key.ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending,
                        key.nulls_first ? cp::NullPlacement::AtStart : cp::NullPlacement::AtEnd);
    }
    ArrayPtr order;
    if (!keys.empty()) {
      ARROW_ASSIGN_OR_RAISE(order, cp::SortIndices(arrow::Datum(input), cp::SortOptions(keys)));
    }
    auto sorted = [&](const std::string& name) -> Result<ArrayPtr> {
      ARROW_ASSIGN_OR_RAISE(auto column, ColumnOf(*input, name));
      if (order == nullptr) return column;
      return cp::Take(*column, *order);
    };
    std::vector<ArrayPtr> partition_keys;
    for (const auto& key : window.partition_by) {
      ARROW_ASSIGN_OR_RAISE(auto column, sorted(key->field));
      partition_keys.push_back(column);
    }
    std::vector<ArrayPtr> order_keys;
    for (const auto& key : window.order_by) {
      ARROW_ASSIGN_OR_RAISE(auto column, sorted(key.expr->field));
      order_keys.push_back(column);
    }
    WindowLayout layout;
    ARROW_ASSIGN_OR_RAISE(auto partition_breaks, Breaks(partition_keys, rows));
    ARROW_ASSIGN_OR_RAISE(auto peer_breaks, Breaks(order_keys, rows));
    for (int64_t i = 0; i < rows; ++i) peer_breaks[i] = peer_breaks[i] || partition_breaks[i];
    Groups(partition_breaks, &layout.partition_start, &layout.partition_end);
    Groups(peer_breaks, &layout.peer_start, &layout.peer_end);
    // Results are scattered back to the input's order through the inverse permutation.
    ArrayPtr inverse;
    if (order != nullptr) {
      const auto& indices = static_cast<const arrow::UInt64Array&>(*order);
      std::vector<int64_t> positions(rows);
      for (int64_t i = 0; i < rows; ++i) positions[indices.Value(i)] = i;
      arrow::Int64Builder builder;
      ARROW_RETURN_NOT_OK(builder.AppendValues(positions));
      ARROW_ASSIGN_OR_RAISE(inverse, builder.Finish());
    }
    for (size_t index : calls) {
      const WindowCall& call = node.window_calls[index];
      if (NeedsOrderValues(call.frame) && layout.order_value.empty()) {
        ARROW_RETURN_NOT_OK(AddOrderValues(order_keys[0], call.order_by[0].ascending, &layout));
      }
      std::vector<ArrayPtr> args;
      for (const auto& arg : call.args) {
        ARROW_ASSIGN_OR_RAISE(auto column, sorted(arg->field));
        args.push_back(column);
      }
      ARROW_ASSIGN_OR_RAISE(auto result, EvaluateWindowCall(call, args, layout));
      if (inverse != nullptr) {
        ARROW_ASSIGN_OR_RAISE(result, cp::Take(*result, *inverse));
      }
      results[index] = result;
    }
  }
  const size_t passed = node.output.size() - node.window_calls.size();
  arrow::ArrayVector columns;
  for (size_t i = 0; i < passed; ++i) {
    ARROW_ASSIGN_OR_RAISE(auto column, ColumnOf(*input, node.output[i].name));
    columns.push_back(column);
  }
  for (auto& result : results) columns.push_back(result);
  return arrow::Table::Make(node.OutputSchema(), columns, rows);
}

}  // namespace parley
