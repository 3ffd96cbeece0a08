// Logical plan helpers: operator names and output schemas.
#include "plan/logical_plan.h"

#include "arrow/type.h"

namespace parley {

std::string PlanNode::OperatorName() const {
  switch (kind) {
    case Kind::kScan: return "BatchScan";
    case Kind::kOneRow: return "OneRowRelation";
    case Kind::kFilter: return "Filter";
    case Kind::kProject: return "Project";
    case Kind::kDistinct: return "HashAggregate";
    case Kind::kSort: return "Sort";
    case Kind::kLimit: return "Limit";
  }
  return "Unknown";
}

std::shared_ptr<arrow::Schema> PlanNode::OutputSchema() const {
  arrow::FieldVector fields;
  for (const auto& field : output) {
    fields.push_back(arrow::field(field.name, field.type, field.nullable));
  }
  return arrow::schema(std::move(fields));
}

}  // namespace parley
