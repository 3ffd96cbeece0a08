// EXPLAIN: renders a negotiated plan as text, in Spark's simple, extended and formatted shapes.
// The formatted form lists every operator with its details; for a scan that is the connector's
// Description(), the predicates it accepted, the filter left above it, the columns it was asked
// for and its partition count.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief The number FORMATTED gives each operator, as "(3)".
using OperatorNumbers = std::map<const PlanNode*, size_t>;

/// \brief Extra lines for an operator's FORMATTED details (EXPLAIN ANALYZE adds its metrics),
/// given every operator's number.
using ExplainAnnotator = std::function<std::string(const PlanNode&, const OperatorNumbers&)>;

/// \brief One operator as EXPLAIN's tree shows it, e.g. `Filter (i > 6)`; column references by
/// the names users see.
std::string OperatorLine(const PlanNode& node);

/// \brief Render `plan` (negotiated and final, plan/pushdown.h) in the given mode, with the
/// physical decisions it records: each join's runtime filters and the subplans it reuses.
/// Plans each scan's partitions (Scan::ToBatch, Batch::PlanInputPartitions) to report their
/// count.
Result<std::string> ExplainPlan(const PlanNodePtr& plan, sql::ExplainMode mode,
                                const ExplainAnnotator& annotate = nullptr);

/// \brief The EXPLAIN of a command that runs a query: each section of `query_text` (from
/// ExplainPlan: "== Physical Plan ==", and for EXTENDED "== Optimized Logical Plan ==" before
/// it) under its title, as the command's own lines `header` (each ending in a newline) with the
/// section's plan hung below them: its first line prefixed with "+- ", the others indented to
/// match.
std::string ExplainCommand(const std::string& header, const std::string& query_text);

}  // namespace parley
