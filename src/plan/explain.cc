// EXPLAIN rendering: an indented operator tree, and for FORMATTED a numbered detail section per
// operator, as Spark prints it.
#include "plan/explain.h"

#include <fmt/format.h>

#include <map>
#include <sstream>

#include "arrow/scalar.h"
#include "plan/pushdown.h"
#include "plan/runtime_filter.h"
#include "plan/storage_partitioned_join.h"

namespace parley {
namespace {

std::string JoinNames(const std::vector<OutputField>& fields) {
  std::vector<std::string> names;
  for (const auto& field : fields) names.push_back(field.display);
  return fmt::format("[{}]", fmt::join(names, ", "));
}

std::string PredicateList(const std::vector<PredicatePtr>& predicates) {
  std::vector<std::string> texts;
  for (const auto& predicate : predicates) texts.push_back(predicate->ToString());
  return fmt::format("[{}]", fmt::join(texts, ", "));
}

// A pushed join as EXPLAIN prints it: `Inner tc.default.b ON (k = k_1), left [k, x], right
// [k AS k_1, y]`, then the right side's pushed predicates if any.
std::string PushedJoinText(const PushedJoin& join) {
  auto columns = [](const std::vector<ColumnWithAlias>& side) {
    std::vector<std::string> names;
    for (const auto& column : side) {
      names.push_back(column.alias.empty() ? column.column : column.column + " AS " + column.alias);
    }
    return fmt::format("[{}]", fmt::join(names, ", "));
  };
  std::string text =
      fmt::format("Inner {} ON {}, left {}, right {}", join.right_table, join.condition->ToString(),
                  columns(join.left_columns), columns(join.right_columns));
  if (!join.right_pushed_predicates.empty()) {
    text += ", right PushedPredicates " + PredicateList(join.right_pushed_predicates);
  }
  return text;
}

// The narrowed struct columns asked of a scan (plan/nested_pruning.h), each marked when the
// source read it whole instead: `RequiredNestedSchema: [s STRUCT<a: BIGINT>]`.
std::string NestedSchemaLine(const PlanNode& scan) {
  std::vector<std::string> items;
  for (const auto& [name, type] : scan.negotiation->narrowed_types) {
    std::string item = name + " " + SqlTypeName(*type);
    for (const auto& field : scan.output) {
      if (field.name == name && !field.type->Equals(*type)) item += " (read whole)";
    }
    items.push_back(std::move(item));
  }
  return fmt::format("RequiredNestedSchema: [{}]\n", fmt::join(items, ", "));
}

std::string ScanTitle(const PlanNode& node) {
  return fmt::format("BatchScan {}", node.table_name.ToString());
}

// Join keys of one side, as `[a, b]`.
std::string JoinKeyList(const PlanNode& node, bool left) {
  std::vector<std::string> keys;
  for (const auto& key : node.join_keys) keys.push_back((left ? key.left : key.right)->ToString());
  return fmt::format("[{}]", fmt::join(keys, ", "));
}

std::string JoinDetails(const PlanNode& node) {
  std::string line = node.OperatorName() + " " + JoinTypeName(node.join_type);
  if (!node.join_keys.empty()) {
    line += ", " + JoinKeyList(node, true) + ", " + JoinKeyList(node, false);
    std::vector<std::string> null_safe;
    for (const auto& key : node.join_keys) {
      if (key.null_safe) null_safe.push_back(key.left->ToString());
    }
    if (!null_safe.empty()) line += fmt::format(" NullSafe [{}]", fmt::join(null_safe, ", "));
  }
  if (node.condition) line += ", " + node.condition->ToString();
  std::string runtime_filter = RuntimeFilterSummary(node);
  if (!runtime_filter.empty()) line += ", RuntimeFilter " + runtime_filter;
  if (node.storage_partitioned) line += ", StoragePartitioned";
  return line;
}

std::string PathList(const std::vector<std::vector<std::string>>& paths) {
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(fmt::format("{}", fmt::join(path, ".")));
  return fmt::format("[{}]", fmt::join(names, ", "));
}

// A post-processing stage: its grouping keys and each pass it runs with the reason.
std::string ChangelogPassDetails(const PlanNode& node) {
  const auto& post = *node.changelog;
  if (node.changelog_stage == ChangelogStage::kNetChanges) {
    return fmt::format("{} keys={}: {}", node.OperatorName(), PathList(post.row_id),
                       post.NetChangesReason());
  }
  auto keys = post.row_id;
  keys.push_back({kCommitVersionColumn});
  std::string line = fmt::format("{} keys={}", node.OperatorName(), PathList(keys));
  if (post.carryover_removal) {
    line += fmt::format(", rowVersion={}", fmt::join(post.row_version, "."));
  }
  return line + ": " + fmt::format("{}", fmt::join(post.RowLevelReasons(), ", "));
}

// For a change read whose rows need no post-processing, why none runs.
std::string NoPostProcessing(const PlanNode& scan) {
  if (scan.changelog == nullptr || scan.changelog->any()) return {};
  return "PostProcessing: " + scan.changelog->NoPassReason();
}

// One line per operator with its key facts (the simple form).
std::string InlineDetails(const PlanNode& node) {
  switch (node.kind) {
    case PlanNode::Kind::kScan: {
      std::string line = ScanTitle(node) + JoinNames(node.output);
      const auto& n = *node.negotiation;
      if (!n.pushed_predicates.empty()) {
        line += " PushedPredicates: " + PredicateList(n.pushed_predicates);
      }
      if (n.pushed_sample) line += " PushedSample: " + n.pushed_sample->ToString();
      for (const auto& join : n.pushed_joins) line += " PushedJoin: " + PushedJoinText(join);
      if (!n.runtime_predicates.empty()) {
        line += " RuntimeFilters: " + PredicateList(n.runtime_predicates);
      }
      std::string description = n.scan->Description();
      if (!description.empty()) line += " " + description;
      std::string no_pass = NoPostProcessing(node);
      if (!no_pass.empty()) line += " " + no_pass;
      return line;
    }
    case PlanNode::Kind::kFilter: return "Filter " + node.condition->ToString();
    case PlanNode::Kind::kProject: {
      std::vector<std::string> items;
      for (size_t i = 0; i < node.exprs.size(); ++i) {
        std::string text = node.exprs[i]->ToString();
        if (text != node.output[i].display) text += " AS " + node.output[i].display;
        items.push_back(text);
      }
      return fmt::format("Project [{}]", fmt::join(items, ", "));
    }
    case PlanNode::Kind::kSort: {
      std::vector<std::string> keys;
      for (const auto& key : node.sort_keys) {
        keys.push_back(fmt::format("{} {} {}", key.expr->ToString(), key.ascending ? "ASC" : "DESC",
                                   key.nulls_first ? "NULLS FIRST" : "NULLS LAST"));
      }
      return fmt::format("Sort [{}]", fmt::join(keys, ", "));
    }
    case PlanNode::Kind::kLimit:
      return fmt::format("Limit {}{}", node.limit ? std::to_string(*node.limit) : "ALL",
                         node.offset > 0 ? fmt::format(" OFFSET {}", node.offset) : "");
    case PlanNode::Kind::kDistinct:
      return "HashAggregate(keys=" + JoinNames(node.output) + ", functions=[])";
    case PlanNode::Kind::kOneRow: return "OneRowRelation";
    case PlanNode::Kind::kValues:
      return fmt::format("LocalTableScan {}, {} rows", JoinNames(node.output), node.values.size());
    case PlanNode::Kind::kAggregate: {
      std::vector<std::string> keys;
      for (const auto& key : node.group_keys) keys.push_back(key->ToString());
      std::vector<std::string> functions;
      for (const auto& call : node.aggregates) functions.push_back(call.ToString());
      return fmt::format("HashAggregate(keys=[{}], functions=[{}])", fmt::join(keys, ", "),
                         fmt::join(functions, ", "));
    }
    case PlanNode::Kind::kJoin: return JoinDetails(node);
    case PlanNode::Kind::kChangelogPass: return ChangelogPassDetails(node);
    case PlanNode::Kind::kUnion: return "Union " + JoinNames(node.output);
    case PlanNode::Kind::kReplicateRows:
      return fmt::format("ReplicateRows {} times {}", JoinNames(node.output),
                         node.replicate_count->ToString());
    case PlanNode::Kind::kExpand: {
      std::vector<std::string> projections;
      for (const auto& projection : node.expand_projections) {
        std::vector<std::string> items;
        for (const auto& expr : projection) items.push_back(expr->ToString());
        projections.push_back(fmt::format("[{}]", fmt::join(items, ", ")));
      }
      return fmt::format("Expand [{}], {}", fmt::join(projections, ", "), JoinNames(node.output));
    }
    case PlanNode::Kind::kSample: return "Sample " + node.sample.ToString();
    case PlanNode::Kind::kGenerate:
      return fmt::format("Generate {}({})", node.generator, fmt::join(node.generator_args, ", "));
    case PlanNode::Kind::kWindow: {
      std::vector<std::string> calls;
      for (const auto& call : node.window_calls) calls.push_back(call.ToString());
      return fmt::format("Window [{}]", fmt::join(calls, ", "));
    }
  }
  return node.OperatorName();
}

// A node that reads the rows an equal subplan computes (PlanNode::reuses) is marked, as
// Spark marks a ReusedExchange; both compute their rows once, whichever runs first.
void RenderTree(PlanNode& node, const std::string& prefix, bool is_root, bool numbered,
                std::vector<PlanNode*>* order, std::string* out) {
  std::string label;
  if (numbered) {
    label = node.kind == PlanNode::Kind::kScan ? ScanTitle(node) : node.OperatorName();
  } else {
    label = InlineDetails(node);
  }
  if (node.reuses != nullptr) label = "ReusedSubplan " + label;
  // Children are numbered before their parents, as Spark numbers bottom-up.
  std::string child_prefix = is_root ? "" : prefix + "   ";
  std::vector<std::string> child_lines;
  for (const auto& child : node.children) {
    std::string child_out;
    RenderTree(*child, child_prefix, false, numbered, order, &child_out);
    child_lines.push_back(child_out);
  }
  order->push_back(&node);
  if (numbered) label += fmt::format(" ({})", order->size());
  *out += (is_root ? "" : prefix + "+- ") + label + "\n";
  for (const auto& lines : child_lines) *out += lines;
}

// What a scan reports through its optional mix-ins: statistics (after pushdown),
// partitioning and ordering.
Result<std::string> ReportedByScan(const Scan& scan) {
  std::string out;
  if (const auto* stats_source = dynamic_cast<const SupportsReportStatistics*>(&scan)) {
    ARROW_ASSIGN_OR_RAISE(auto stats, stats_source->EstimateStatistics());
    auto optional = [](const std::optional<int64_t>& v) {
      return v ? std::to_string(*v) : std::string("unknown");
    };
    out += fmt::format("Statistics: rows={}, sizeInBytes={}\n", optional(stats.num_rows),
                       optional(stats.size_in_bytes));
    for (const auto& [column, column_stats] : stats.column_stats) {
      out += fmt::format("  {}: nulls={}, distinct={}, min={}, max={}\n", column,
                         optional(column_stats.null_count), optional(column_stats.distinct_count),
                         column_stats.min ? column_stats.min->ToString() : "unknown",
                         column_stats.max ? column_stats.max->ToString() : "unknown");
    }
  }
  if (const auto* partitioned = dynamic_cast<const SupportsReportPartitioning*>(&scan)) {
    auto partitioning = partitioned->OutputPartitioning();
    std::vector<std::string> keys;
    for (const auto& key : partitioning.keys) keys.push_back(key->ToString());
    out += fmt::format("OutputPartitioning: {}\n",
                       keys.empty() ? fmt::format("unknown({})", partitioning.num_partitions)
                                    : fmt::format("keyGrouped([{}], {})", fmt::join(keys, ", "),
                                                  partitioning.num_partitions));
  }
  if (const auto* ordered = dynamic_cast<const SupportsReportOrdering*>(&scan)) {
    std::vector<std::string> orders;
    for (const auto& order : ordered->OutputOrdering()) orders.push_back(order->ToString());
    out += fmt::format("OutputOrdering: [{}]\n", fmt::join(orders, ", "));
  }
  return out;
}

Result<std::string> Details(PlanNode* node, size_t number, const OperatorNumbers& numbers) {
  std::string out;
  const std::string input = node->children.empty() ? "" : JoinNames(node->children[0]->output);
  switch (node->kind) {
    case PlanNode::Kind::kScan: {
      ARROW_RETURN_NOT_OK(PlanScanPartitions(node));
      const auto& n = *node->negotiation;
      out += fmt::format("({}) {}\n", number, ScanTitle(*node));
      out += fmt::format("Output [{}]: {}\n", node->output.size(), JoinNames(node->output));
      if (dynamic_cast<SupportsPushDownFilters*>(n.builder.get()) != nullptr) {
        std::vector<std::string> filters;
        for (const auto& filter : n.pushed_filters) filters.push_back(filter->ToString());
        out += fmt::format("PushedFilters: [{}]\n", fmt::join(filters, ", "));
      } else {
        out += fmt::format("PushedPredicates: {}\n", PredicateList(n.pushed_predicates));
      }
      if (n.pushed_sample) out += "PushedSample: " + n.pushed_sample->ToString() + "\n";
      for (const auto& join : n.pushed_joins) out += "PushedJoin: " + PushedJoinText(join) + "\n";
      if (n.pushed_aggregation) {
        out += fmt::format("PushedAggregation: {} ({})\n", n.pushed_aggregation->ToString(),
                           n.aggregation_complete ? "complete" : "partial");
      }
      if (!n.pushed_top_n.empty()) {
        std::vector<std::string> orders;
        for (const auto& order : n.pushed_top_n) orders.push_back(order->ToString());
        out += fmt::format("PushedTopN: ORDER BY [{}] LIMIT {}{}\n", fmt::join(orders, ", "),
                           *n.pushed_limit, n.limit_fully_pushed ? "" : " (partial)");
      } else if (n.pushed_limit) {
        out += fmt::format("PushedLimit: {}{}\n", *n.pushed_limit,
                           n.limit_fully_pushed ? "" : " (partial)");
      }
      if (n.pushed_offset) out += fmt::format("PushedOffset: {}\n", *n.pushed_offset);
      if (!n.runtime_predicates.empty()) {
        out += fmt::format("RuntimeFilters: {}\n", PredicateList(n.runtime_predicates));
      }
      if (n.pruning_offered) {
        out += fmt::format("RequiredColumns: [{}]\n", fmt::join(n.required_columns, ", "));
        if (!n.narrowed_types.empty()) out += NestedSchemaLine(*node);
      }
      std::string description = n.scan->Description();
      if (!description.empty()) out += "Description: " + description + "\n";
      if (node->changelog != nullptr) {
        out += "ChangeRange: " + node->changelog->info.range.ToString() + "\n";
      }
      std::string no_pass = NoPostProcessing(*node);
      if (!no_pass.empty()) out += no_pass + "\n";
      out += fmt::format("Partitions: {}\n", n.partitions.size());
      ARROW_ASSIGN_OR_RAISE(auto reported, ReportedByScan(*n.scan));
      out += reported;
      break;
    }
    case PlanNode::Kind::kFilter:
      out += fmt::format("({}) Filter\nInput [{}]: {}\nCondition : {}\n", number,
                         node->children[0]->output.size(), input, node->condition->ToString());
      break;
    case PlanNode::Kind::kJoin:
      out += fmt::format("({}) {}\n", number, node->OperatorName());
      out += fmt::format("Left keys [{}]: {}\n", node->join_keys.size(), JoinKeyList(*node, true));
      out +=
          fmt::format("Right keys [{}]: {}\n", node->join_keys.size(), JoinKeyList(*node, false));
      out += fmt::format("Join type: {}\n", JoinTypeName(node->join_type));
      out += fmt::format("Join condition: {}\n",
                         node->condition ? node->condition->ToString() : "None");
      if (std::string runtime = RuntimeFilterSummary(*node); !runtime.empty()) {
        out += "RuntimeFilter: " + runtime + "\n";
      }
      if (node->storage_partitioned) {
        ARROW_ASSIGN_OR_RAISE(auto groups, GroupJoinPartitions(*node));
        if (groups) {
          out += fmt::format("StoragePartitionedJoin: [{}], {} key groups\n",
                             fmt::join(groups->keys, ", "), groups->left.size());
        }
      }
      out += fmt::format("Output [{}]: {}\n", node->output.size(), JoinNames(node->output));
      break;
    default:
      out += fmt::format("({}) {}\n", number, node->OperatorName());
      if (!node->children.empty()) {
        out += fmt::format("Input [{}]: {}\n", node->children[0]->output.size(), input);
      }
      out += fmt::format("Arguments: {}\n", InlineDetails(*node));
      out += fmt::format("Output [{}]: {}\n", node->output.size(), JoinNames(node->output));
      break;
  }
  if (node->reuses != nullptr) {
    out += fmt::format("Reuses: ({}), computed once\n", numbers.at(node->reuses));
  }
  return out;
}

}  // namespace

std::string OperatorLine(const PlanNode& node) { return InlineDetails(node); }

Result<std::string> ExplainPlan(const PlanNodePtr& plan, sql::ExplainMode mode,
                                const ExplainAnnotator& annotate) {
  std::vector<PlanNode*> order;
  std::string tree;
  bool numbered = mode == sql::ExplainMode::kFormatted || mode == sql::ExplainMode::kAnalyze;
  RenderTree(*plan, "", true, numbered, &order, &tree);
  if (!numbered) {
    if (mode == sql::ExplainMode::kExtended) {
      return "== Optimized Logical Plan ==\n" + tree + "\n== Physical Plan ==\n" + tree;
    }
    return "== Physical Plan ==\n" + tree;
  }
  std::string out = "== Physical Plan ==\n" + tree;
  OperatorNumbers numbers;
  for (size_t i = 0; i < order.size(); ++i) numbers[order[i]] = i + 1;
  for (size_t i = 0; i < order.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto details, Details(order[i], i + 1, numbers));
    out += "\n" + details;
    if (annotate) out += annotate(*order[i], numbers);
  }
  return out;
}

std::string ExplainCommand(const std::string& header, const std::string& query_text) {
  std::vector<std::string> lines;
  std::istringstream input(query_text);
  for (std::string line; std::getline(input, line);) lines.push_back(std::move(line));
  auto is_title = [&](size_t i) { return i < lines.size() && lines[i].rfind("== ", 0) == 0; };
  std::string out;
  bool first = true;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (is_title(i)) {
      out += (out.empty() ? "" : "\n") + lines[i] + "\n" + header;
      first = true;
    } else if (!(lines[i].empty() && (first || is_title(i + 1)))) {
      out += (first ? "+- " : "   ") + lines[i] + "\n";
      first = false;
    }
  }
  return out;
}

}  // namespace parley
