// Greedy ordering of inner-join groups by connectivity and estimated size.
#include "plan/join_reorder.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/read.h"
#include "plan/join_condition.h"

namespace parley {
namespace {

// Row count assumed for a source that reports none: large, so it is streamed rather than built.
constexpr double kUnknownRows = 1e12;
// Share of rows assumed to pass one filter conjunct, and to survive an aggregate's grouping.
constexpr double kConjunctSelectivity = 0.3;
// How many rows a generator makes of each input row, as planned.
constexpr double kGeneratedRows = 4.0;
constexpr double kGroupingReduction = 0.5;

bool IsReorderable(const PlanNode& node) {
  return node.kind == PlanNode::Kind::kJoin &&
         (node.join_type == PlanJoinType::kInner || node.join_type == PlanJoinType::kCross);
}

bool IsTrueLiteral(const BoundExpr& expr) {
  return expr.kind == BoundExpr::Kind::kLiteral && expr.literal->is_valid &&
         expr.literal->Equals(arrow::BooleanScalar(true));
}

// Splits a group of inner joins into its inputs and every condition it applies (keys as
// equalities, residuals as conjuncts).
void Flatten(const PlanNodePtr& node, std::vector<PlanNodePtr>* inputs,
             std::vector<BoundExprPtr>* conditions) {
  if (!IsReorderable(*node)) {
    inputs->push_back(node);
    return;
  }
  for (const auto& child : node->children) Flatten(child, inputs, conditions);
  for (const auto& key : node->join_keys) {
    conditions->push_back(
        MakeCall(key.null_safe ? "<=>" : "=", {key.left, key.right}, arrow::boolean()));
  }
  if (node->condition) {
    for (const auto& conjunct : SplitConjuncts(node->condition)) {
      if (!IsTrueLiteral(*conjunct)) conditions->push_back(conjunct);
    }
  }
}

struct Condition {
  BoundExprPtr expr;
  std::set<size_t> inputs;   // indexes of the group's inputs it reads
  bool equi = false;         // an equality between two inputs: a hash-join key
  double distinct_keys = 1;  // equi only: the estimated distinct key values (DistinctKeys)
  bool placed = false;
};

bool Outputs(const PlanNode& node, const std::string& field) {
  return std::any_of(node.output.begin(), node.output.end(),
                     [&](const OutputField& f) { return f.name == field; });
}

std::set<size_t> InputsRead(const BoundExpr& expr, const std::vector<PlanNodePtr>& inputs) {
  std::vector<std::string> fields;
  expr.CollectFields(&fields);
  std::set<size_t> read;
  for (const auto& field : fields) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (Outputs(*inputs[i], field)) read.insert(i);
    }
  }
  return read;
}

bool IsEquiCondition(const BoundExpr& expr, const std::vector<PlanNodePtr>& inputs) {
  if (expr.kind != BoundExpr::Kind::kCall || (expr.function != "=" && expr.function != "<=>")) {
    return false;
  }
  std::set<size_t> first = InputsRead(*expr.args[0], inputs);
  std::set<size_t> second = InputsRead(*expr.args[1], inputs);
  return first.size() == 1 && second.size() == 1 && first != second;
}

bool Subset(const std::set<size_t>& inner, const std::set<size_t>& outer) {
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

// The fields a join of `joined` must keep: those the group's output names and those that
// conditions not yet applied read.
std::vector<OutputField> KeptFields(const PlanNode& left, const PlanNode& right,
                                    const std::vector<OutputField>& group_output,
                                    const std::vector<Condition>& conditions) {
  std::vector<std::string> needed;
  for (const auto& field : group_output) needed.push_back(field.name);
  for (const auto& condition : conditions) {
    if (!condition.placed) condition.expr->CollectFields(&needed);
  }
  std::vector<OutputField> kept;
  for (const PlanNode* side : {&left, &right}) {
    for (const auto& field : side->output) {
      if (std::find(needed.begin(), needed.end(), field.name) != needed.end()) {
        kept.push_back(field);
      }
    }
  }
  return kept;
}

double ScanRows(const PlanNode& scan) {
  const auto* negotiation = scan.negotiation.get();
  if (negotiation == nullptr || !negotiation->scan) return kUnknownRows;
  const auto* source = dynamic_cast<const SupportsReportStatistics*>(negotiation->scan.get());
  if (source == nullptr) return kUnknownRows;
  auto stats = source->EstimateStatistics();
  if (!stats.ok() || !stats->num_rows) return kUnknownRows;
  return static_cast<double>(*stats->num_rows);
}

// The rows `node` would return without its filters: the size of the table under them.
double BaseRows(const PlanNode& node) {
  switch (node.kind) {
    case PlanNode::Kind::kScan: return ScanRows(node);
    case PlanNode::Kind::kFilter:
    case PlanNode::Kind::kProject: return BaseRows(*node.children[0]);
    default: return EstimateRows(node);
  }
}

// How many distinct values `field` of `node` can have at most, from the integer bounds its scan
// reports (the width of [min, max]); unknown when the scan reports none.
std::optional<double> DistinctBound(const PlanNode& node, const std::string& field) {
  switch (node.kind) {
    case PlanNode::Kind::kFilter: return DistinctBound(*node.children[0], field);
    case PlanNode::Kind::kProject:
      for (size_t i = 0; i < node.output.size() && i < node.exprs.size(); ++i) {
        if (node.output[i].name != field) continue;
        if (node.exprs[i]->kind != BoundExpr::Kind::kColumn) return std::nullopt;
        return DistinctBound(*node.children[0], node.exprs[i]->field);
      }
      return std::nullopt;
    case PlanNode::Kind::kScan: {
      const auto* negotiation = node.negotiation.get();
      if (negotiation == nullptr || !negotiation->scan) return std::nullopt;
      const auto* source = dynamic_cast<const SupportsReportStatistics*>(negotiation->scan.get());
      if (source == nullptr) return std::nullopt;
      auto stats = source->EstimateStatistics();
      if (!stats.ok()) return std::nullopt;
      auto column = stats->column_stats.find(field);
      if (column == stats->column_stats.end() || !column->second.min || !column->second.max) {
        return std::nullopt;
      }
      auto low = column->second.min->CastTo(arrow::float64());
      auto high = column->second.max->CastTo(arrow::float64());
      if (!low.ok() || !high.ok() || !(*low)->is_valid || !(*high)->is_valid) return std::nullopt;
      double width = static_cast<const arrow::DoubleScalar&>(**high).value -
                     static_cast<const arrow::DoubleScalar&>(**low).value + 1;
      if (width < 1) return std::nullopt;
      return width;
    }
    default: return std::nullopt;
  }
}

// The distinct key values of the equi-join `condition`, which divide the product of its sides'
// rows. Without column statistics the key is taken to be that of the input whose table is
// smaller before filters (a foreign key into a primary key), so that the key side's filters
// pass through; reported integer bounds cap the distinct values, which catches joins on a
// low-cardinality column.
double DistinctKeys(const Condition& condition, const std::vector<PlanNodePtr>& inputs,
                    const std::vector<double>& base_rows) {
  double distinct = std::numeric_limits<double>::max();
  for (size_t input : condition.inputs) distinct = std::min(distinct, base_rows[input]);
  std::optional<double> widest;
  for (const auto& side : condition.expr->args) {
    if (side->kind != BoundExpr::Kind::kColumn) continue;
    for (size_t input : condition.inputs) {
      if (!Outputs(*inputs[input], side->field)) continue;
      if (auto bound = DistinctBound(*inputs[input], side->field)) {
        widest = std::max(widest.value_or(0), *bound);
      }
    }
  }
  if (widest) distinct = std::min(distinct, *widest);
  return std::max(distinct, 1.0);
}

// An order in which to join a group's inputs, with the estimated rows after each step.
struct JoinOrder {
  std::vector<size_t> inputs;
  std::vector<double> rows;
  double cost = 0;  // the sum of the estimated intermediate results
};

// Greedy from `start`: next, among the inputs an equi-join key connects to those joined, the one
// giving the fewest rows (the first in written order on a tie); else the first that any
// condition connects; else the first left (a cross join).
JoinOrder OrderFrom(size_t start, const std::vector<Condition>& conditions,
                    const std::vector<double>& rows) {
  JoinOrder order;
  order.inputs.push_back(start);
  order.rows.push_back(rows[start]);
  std::set<size_t> joined = {start};
  double current = rows[start];
  while (joined.size() < rows.size()) {
    size_t best = rows.size();
    int best_rank = 3;
    double best_rows = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (joined.count(i)) continue;
      std::set<size_t> with = joined;
      with.insert(i);
      int rank = 2;
      double joined_rows = current * rows[i];
      for (const auto& condition : conditions) {
        if (!condition.inputs.count(i) || condition.inputs.size() < 2 ||
            !Subset(condition.inputs, with)) {
          continue;
        }
        if (condition.equi) {
          rank = 0;
          joined_rows =
              std::min(joined_rows, std::max(current * rows[i] / condition.distinct_keys, 1.0));
        } else {
          rank = std::min(rank, 1);
        }
      }
      if (rank == 1) joined_rows *= kConjunctSelectivity;
      bool better = rank < best_rank || (rank == 0 && best_rank == 0 && joined_rows < best_rows);
      if (better) {
        best = i;
        best_rank = rank;
        best_rows = joined_rows;
      }
    }
    joined.insert(best);
    current = best_rows;
    order.inputs.push_back(best);
    order.rows.push_back(current);
    order.cost += current;
  }
  return order;
}

// The greedy order from whichever input makes the intermediate results smallest in total (the
// first input as written when estimates tie, as they do when no input reports its size).
JoinOrder CheapestOrder(const std::vector<Condition>& conditions, const std::vector<double>& rows) {
  JoinOrder cheapest = OrderFrom(0, conditions, rows);
  for (size_t start = 1; start < rows.size(); ++start) {
    JoinOrder order = OrderFrom(start, conditions, rows);
    if (order.cost < cheapest.cost) cheapest = std::move(order);
  }
  return cheapest;
}

Result<PlanNodePtr> ReorderGroup(const PlanNodePtr& group) {
  std::vector<PlanNodePtr> inputs;
  std::vector<BoundExprPtr> exprs;
  Flatten(group, &inputs, &exprs);
  for (auto& input : inputs) {
    ARROW_ASSIGN_OR_RAISE(input, ReorderJoins(input));
  }
  std::vector<Condition> conditions;
  for (const auto& expr : exprs) {
    conditions.push_back({expr, InputsRead(*expr, inputs), IsEquiCondition(*expr, inputs)});
  }
  std::vector<double> rows;
  std::vector<double> base_rows;
  for (const auto& input : inputs) {
    rows.push_back(EstimateRows(*input));
    base_rows.push_back(BaseRows(*input));
  }
  for (auto& condition : conditions) {
    if (condition.equi) condition.distinct_keys = DistinctKeys(condition, inputs, base_rows);
  }
  JoinOrder order = CheapestOrder(conditions, rows);

  std::set<size_t> joined = {order.inputs[0]};
  PlanNodePtr tree = inputs[order.inputs[0]];
  double tree_rows = rows[order.inputs[0]];
  for (size_t step = 1; step < order.inputs.size(); ++step) {
    size_t best = order.inputs[step];
    joined.insert(best);
    auto join = std::make_shared<PlanNode>();
    join->kind = PlanNode::Kind::kJoin;
    join->join_type = PlanJoinType::kInner;
    join->children = {tree, inputs[best]};
    // Provisional output (both sides whole) so conditions can find their sides.
    join->output = tree->output;
    join->output.insert(join->output.end(), inputs[best]->output.begin(),
                        inputs[best]->output.end());
    std::vector<BoundExprPtr> applied;
    for (auto& condition : conditions) {
      if (!condition.placed && Subset(condition.inputs, joined)) {
        applied.push_back(condition.expr);
        condition.placed = true;
      }
    }
    // Acero builds its hash table from the right input: put the smaller one there.
    if (tree_rows < rows[best]) std::swap(join->children[0], join->children[1]);
    if (applied.empty()) {
      join->join_type = PlanJoinType::kCross;
    } else {
      AddJoinCondition(join.get(), CombineConjuncts(applied));
    }
    tree_rows = order.rows[step];
    join->output = KeptFields(*join->children[0], *join->children[1], group->output, conditions);
    tree = join;
  }
  // Conditions over a single input (or none) were pushed below already; keep any left over.
  std::vector<BoundExprPtr> unplaced;
  for (const auto& condition : conditions) {
    if (!condition.placed) unplaced.push_back(condition.expr);
  }
  if (!unplaced.empty()) {
    auto filter = std::make_shared<PlanNode>();
    filter->kind = PlanNode::Kind::kFilter;
    filter->children = {tree};
    filter->output = tree->output;
    filter->condition = CombineConjuncts(unplaced);
    tree = filter;
  }
  bool same_order =
      tree->output.size() == group->output.size() &&
      std::equal(tree->output.begin(), tree->output.end(), group->output.begin(),
                 [](const OutputField& a, const OutputField& b) { return a.name == b.name; });
  if (same_order) return tree;
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {tree};
  project->output = group->output;
  for (const auto& field : group->output) {
    project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
  }
  return project;
}

}  // namespace

double EstimateRows(const PlanNode& node) {
  switch (node.kind) {
    case PlanNode::Kind::kScan: return ScanRows(node);
    case PlanNode::Kind::kOneRow: return 1;
    case PlanNode::Kind::kValues: return static_cast<double>(node.values.size());
    case PlanNode::Kind::kFilter: {
      double rows = EstimateRows(*node.children[0]);
      for (size_t i = 0; i < SplitConjuncts(node.condition).size(); ++i) {
        rows *= kConjunctSelectivity;
      }
      return std::max(rows, 1.0);
    }
    case PlanNode::Kind::kSample:
      return std::max(EstimateRows(*node.children[0]) * (node.sample.upper - node.sample.lower),
                      1.0);
    case PlanNode::Kind::kGenerate: return EstimateRows(*node.children[0]) * kGeneratedRows;
    case PlanNode::Kind::kLimit: {
      double rows = EstimateRows(*node.children[0]);
      return node.limit ? std::min(rows, static_cast<double>(*node.limit)) : rows;
    }
    case PlanNode::Kind::kAggregate:
      if (node.group_keys.empty()) return 1;
      return std::max(EstimateRows(*node.children[0]) * kGroupingReduction, 1.0);
    case PlanNode::Kind::kJoin: {
      double left = EstimateRows(*node.children[0]);
      double right = EstimateRows(*node.children[1]);
      switch (node.join_type) {
        case PlanJoinType::kLeftSemi:
          // Left rows usually find their key in a table (FK -> PK): as many are kept as the
          // right input keeps of its table.
          return std::max(left * std::min(1.0, right / BaseRows(*node.children[1])), 1.0);
        case PlanJoinType::kLeftAnti: return left;
        case PlanJoinType::kCross: return std::min(left * right, kUnknownRows);
        default:
          // An equi-join usually follows a key: about as many rows as its larger input.
          return std::max(left, right);
      }
    }
    default: return EstimateRows(*node.children[0]);
  }
}

Result<PlanNodePtr> ReorderJoins(const PlanNodePtr& plan) {
  if (IsReorderable(*plan)) return ReorderGroup(plan);
  for (auto& child : plan->children) {
    ARROW_ASSIGN_OR_RAISE(child, ReorderJoins(child));
  }
  return plan;
}

}  // namespace parley
