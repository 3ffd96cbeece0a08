#include "analysis/generator.h"

#include <fmt/format.h>

#include <set>

#include "analysis/analysis_error.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "plan/type_rules.h"

namespace parley {

bool IsGeneratorName(const std::string& name) {
  static const std::set<std::string> kNames = {
      "explode", "explode_outer", "posexplode", "posexplode_outer",
      "inline",  "inline_outer",  "stack",      "json_tuple"};
  return kNames.count(name) > 0;
}

Result<BoundGenerator> BindGenerator(const sql::Expr& expr, const std::string& name,
                                     std::vector<BoundExprPtr> args) {
  auto mismatch = [&](const std::string& required) {
    const auto& type = args.empty() ? "none" : SqlTypeName(*args[0]->type);
    return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: The first "
                                     "parameter requires the {} type, however it has the type "
                                     "\"{}\".",
                                     expr.source_text, required, type),
                         expr.pos);
  };
  std::vector<std::pair<std::string, std::shared_ptr<arrow::DataType>>> made;
  if (name == "json_tuple") {
    // One row of the named top-level fields of the JSON text: a stack of one row.
    if (args.size() < 2) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `json_tuple` requires > 1 parameters but the actual "
                                       "number is {}.",
                                       args.size()),
                           expr.pos);
    }
    std::vector<BoundExprPtr> fields = {MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(1))};
    for (auto& arg : args) {
      if (!IsStringLike(*arg->type)) arg = CastTo(arg, arrow::utf8());
    }
    for (size_t i = 1; i < args.size(); ++i) {
      fields.push_back(MakeCall("parley_json_field", {args[0], args[i]}, arrow::utf8()));
      made.emplace_back(fmt::format("c{}", i - 1), arrow::utf8());
    }
    BoundGenerator generator;
    generator.function = "stack";
    generator.args = std::move(fields);
    generator.columns = std::move(made);
    return generator;
  }
  if (name == "stack") {
    if (args.size() < 2) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `stack` requires > 1 parameters but the actual number "
                                       "is {}.",
                                       args.size()),
                           expr.pos);
    }
    const auto& rows = *args[0];
    if (rows.kind != BoundExpr::Kind::kLiteral || !IsIntegral(*rows.type) ||
        !rows.literal->is_valid) {
      return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                       "input `n` should be a foldable \"INT\" expression.",
                                       expr.source_text),
                           expr.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto as_int, rows.literal->CastTo(arrow::int32()));
    int32_t n = static_cast<const arrow::Int32Scalar&>(*as_int).value;
    if (n <= 0) {
      return AnalysisError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: The `n` "
                                       "must be positive, but got {}.",
                                       expr.source_text, n),
                           expr.pos);
    }
    args[0] = MakeBoundLiteral(as_int);
    size_t values = args.size() - 1;
    size_t width = (values + n - 1) / n;
    for (size_t j = 0; j < width; ++j) {
      std::shared_ptr<arrow::DataType> type = arrow::null();
      for (size_t i = 1 + j; i < args.size(); i += width) {
        auto common = CommonType(type, args[i]->type);
        // No string promotion: a string and a number do not stack in one column.
        bool mixed = type->id() != arrow::Type::NA && args[i]->type->id() != arrow::Type::NA &&
                     IsStringLike(*type) != IsStringLike(*args[i]->type);
        if (common == nullptr || mixed) {
          return AnalysisError(
              "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES",
              fmt::format("Cannot resolve \"{}\" due to data type mismatch: The data type of the "
                          "column ({}) do not have the same type: \"{}\" and \"{}\".",
                          expr.source_text, j, SqlTypeName(*type), SqlTypeName(*args[i]->type)),
              expr.pos);
        }
        type = common;
      }
      made.emplace_back(fmt::format("col{}", j), type);
    }
  } else {
    if (args.size() != 1) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `{}` requires 1 parameters but the actual number is "
                                       "{}.",
                                       name, args.size()),
                           expr.pos);
    }
    const auto& type = *args[0]->type;
    const bool is_inline = name.rfind("inline", 0) == 0;
    if (name.rfind("posexplode", 0) == 0) made.emplace_back("pos", arrow::int32());
    if (is_inline) {
      if (type.id() != arrow::Type::LIST || type.field(0)->type()->id() != arrow::Type::STRUCT) {
        return mismatch("\"ARRAY<STRUCT>\"");
      }
      for (const auto& field : type.field(0)->type()->fields()) {
        made.emplace_back(field->name(), field->type());
      }
    } else if (type.id() == arrow::Type::LIST) {
      made.emplace_back("col", type.field(0)->type());
    } else if (type.id() == arrow::Type::MAP) {
      const auto& map = static_cast<const arrow::MapType&>(type);
      made.emplace_back("key", map.key_type());
      made.emplace_back("value", map.item_type());
    } else {
      return mismatch("(\"ARRAY\" or \"MAP\")");
    }
  }
  BoundGenerator generator;
  generator.function = name;
  generator.args = std::move(args);
  generator.columns = std::move(made);
  return generator;
}

PlanNodePtr MakeGenerateNode(PlanNodePtr input, const BoundGenerator& generator,
                             const std::vector<OutputField>& outputs,
                             const std::string& argument_prefix) {
  // The arguments as fields of a projection that passes the input on.
  auto arguments = std::make_shared<PlanNode>();
  arguments->kind = PlanNode::Kind::kProject;
  arguments->children = {input};
  for (const auto& field : input->output) {
    arguments->output.push_back(field);
    arguments->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
  }
  auto generate = std::make_shared<PlanNode>();
  generate->kind = PlanNode::Kind::kGenerate;
  generate->generator = generator.function;
  for (size_t i = 0; i < generator.args.size(); ++i) {
    const auto& arg = generator.args[i];
    std::string field = fmt::format("{}{}", argument_prefix, i);
    arguments->output.push_back({field, field, arg->type, true});
    arguments->exprs.push_back(arg);
    generate->generator_args.push_back(field);
  }
  generate->children = {arguments};
  generate->output = arguments->output;
  generate->output.insert(generate->output.end(), outputs.begin(), outputs.end());
  return generate;
}

}  // namespace parley
