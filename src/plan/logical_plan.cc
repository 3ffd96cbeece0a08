// Logical plan helpers: operator names and output schemas.
#include "plan/logical_plan.h"

#include <fmt/format.h>

#include "arrow/type.h"

namespace parley {
namespace {

// A double as Java prints a simple one: 0.0, 0.25, 1.0.
std::string JavaDouble(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string SampleSpec::ToString() const {
  return fmt::format("{}, {}, {}, {}", JavaDouble(lower), JavaDouble(upper), with_replacement,
                     seed);
}

std::string PlanNode::OperatorName() const {
  switch (kind) {
    case Kind::kScan: return "BatchScan";
    case Kind::kOneRow: return "OneRowRelation";
    case Kind::kValues: return "LocalTableScan";
    case Kind::kFilter: return "Filter";
    case Kind::kProject: return "Project";
    case Kind::kDistinct: return "HashAggregate";
    case Kind::kSort: return "Sort";
    case Kind::kLimit: return "Limit";
    case Kind::kAggregate: return "HashAggregate";
    case Kind::kJoin: return join_keys.empty() ? "NestedLoopJoin" : "HashJoin";
    case Kind::kUnion: return "Union";
    case Kind::kReplicateRows: return "ReplicateRows";
    case Kind::kExpand: return "Expand";
    case Kind::kWindow: return "Window";
    case Kind::kSample: return "Sample";
    case Kind::kGenerate: return "Generate";
    case Kind::kChangelogPass:
      return changelog_stage == ChangelogStage::kRowLevel ? "ChangelogRowLevel"
                                                          : "ChangelogNetChanges";
  }
  return "Unknown";
}

const char* JoinTypeName(PlanJoinType type) {
  switch (type) {
    case PlanJoinType::kInner: return "Inner";
    case PlanJoinType::kCross: return "Cross";
    case PlanJoinType::kLeftOuter: return "LeftOuter";
    case PlanJoinType::kRightOuter: return "RightOuter";
    case PlanJoinType::kFullOuter: return "FullOuter";
    case PlanJoinType::kLeftSemi: return "LeftSemi";
    case PlanJoinType::kLeftAnti: return "LeftAnti";
  }
  return "Unknown";
}

std::string AggregateCall::ToString() const {
  if (function == "COUNT_STAR") return "count(1)";
  std::string out = function;
  for (auto& c : out) c = static_cast<char>(::tolower(c));
  out += distinct ? "(DISTINCT " : "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ", ";
    out += args[i]->ToString();
  }
  return out + ")";
}

std::shared_ptr<arrow::Schema> PlanNode::OutputSchema() const {
  arrow::FieldVector fields;
  for (const auto& field : output) {
    fields.push_back(arrow::field(field.name, field.type, field.nullable));
  }
  return arrow::schema(std::move(fields));
}

}  // namespace parley
