// SelectBinder: generators in the select list (analysis/generator.h), each a Generate node
// below the projection over the rows of the one before.
#include <fmt/format.h>

#include "analysis/analysis_error.h"
#include "analysis/generator.h"
#include "analysis/select_binder.h"
#include "catalog/identifiers.h"

namespace parley {

bool SelectBinder::IsGeneratorItem(const sql::Expr& expr) const {
  return expr.kind == sql::ExprKind::kFunction && expr.name_parts.size() == 1 && !expr.window &&
         IsGeneratorName(ToLowerAscii(expr.name_parts[0]));
}

Status SelectBinder::BindGeneratorItem(const sql::Expr& expr, const std::string& alias,
                                       PlanNode* project) {
  if (aggregate_) {
    return AnalysisError("UNSUPPORTED_FEATURE.QUERY_SHAPE",
                         fmt::format("A generator in an aggregate query is not supported yet: "
                                     "\"{}\".",
                                     expr.source_text),
                         expr.pos);
  }
  std::vector<BoundExprPtr> args;
  for (const auto& child : expr.children) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindItem(*child));
    args.push_back(std::move(arg));
  }
  ARROW_ASSIGN_OR_RAISE(auto generator,
                        BindGenerator(expr, ToLowerAscii(expr.name_parts[0]), std::move(args)));
  if (!alias.empty() && generator.columns.size() == 1) generator.columns[0].first = alias;
  std::vector<OutputField> outputs;
  for (const auto& [display, type] : generator.columns) {
    std::string field = fmt::format("#gen{}_{}_{}", prefix_, generators_.size(), outputs.size());
    outputs.push_back({field, display, type, true});
    AddOutput(project, MakeColumnRef(field, display, type), display);
  }
  generators_.push_back({std::move(generator), std::move(outputs)});
  return Status::OK();
}

PlanNodePtr SelectBinder::MakeGenerate(PlanNodePtr input) const {
  for (size_t g = 0; g < generators_.size(); ++g) {
    input = MakeGenerateNode(std::move(input), generators_[g].call, generators_[g].outputs,
                             fmt::format("#gen{}_{}_arg", prefix_, g));
  }
  return input;
}

}  // namespace parley
