// Lowering of aggregates (Acero's aggregate node with Spark's types and overflow checks) and
// of grouping sets (one projection of the gathered input per set).
#include <fmt/format.h>

#include <limits>

#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "exec/expression_lowering.h"
#include "exec/lowering.h"
#include "exec/shared_subexpressions.h"
#include "kernels/connector_aggregate.h"
#include "kernels/expression_kernels.h"

namespace parley {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

// The input gathered once, then one projection of it per grouping set, all unioned.
Result<ac::Declaration> Lowering::LowerExpand(const PlanNode& node) {
  ARROW_ASSIGN_OR_RAISE(auto table, Gather(node.children[0]));
  std::vector<ac::Declaration::Input> inputs;
  for (const auto& projection : node.expand_projections) {
    std::vector<cp::Expression> exprs;
    std::vector<std::string> names;
    for (size_t i = 0; i < projection.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto expr, LowerExpression(*projection[i]));
      exprs.push_back(std::move(expr));
      names.push_back(node.output[i].name);
    }
    inputs.emplace_back(ac::Declaration::Sequence(
        {{"table_source", ac::TableSourceNodeOptions(table)},
         {"project", ac::ProjectNodeOptions(std::move(exprs), std::move(names))}}));
  }
  if (inputs.size() == 1) return std::get<ac::Declaration>(std::move(inputs[0]));
  return ac::Declaration("union", std::move(inputs), ac::ExecNodeOptions{});
}

// Project keys and arguments to fields, aggregate with Arrow's (hash_)count/sum/mean/min/max,
// then give each result Spark's type. An argument or an aggregate that occurs several times
// is projected or computed once. A decimal AVG is a SUM and a COUNT of its argument, divided
// in the last projection (Spark's average: the quotient rounded half up to four more digits
// of scale), so it shares the SUM a query often asks for as well and never widens each value.
Result<ac::Declaration> Lowering::LowerAggregate(const PlanNodePtr& node) {
  MarkUnorderedInput(*node);
  ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
  std::vector<cp::Expression> inputs;
  std::vector<std::string> input_names;
  std::vector<arrow::FieldRef> keys;
  for (size_t i = 0; i < node->group_keys.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto key, LowerExpression(*node->group_keys[i]));
    inputs.push_back(NormalizedKey(std::move(key), *node->group_keys[i]->type));
    input_names.push_back(node->output[i].name);
    keys.emplace_back(node->output[i].name);
  }
  bool grouped = !keys.empty();
  std::map<std::string, std::string> projected;  // argument text -> its input field
  std::map<std::string, std::string> computed;   // aggregate text -> its result field
  std::vector<cp::Aggregate> aggregates;
  // The result field of `function` over the argument field `target` ("" for none).
  auto aggregate = [&](std::string function, std::shared_ptr<cp::FunctionOptions> options,
                       const std::string& target, std::string name) -> std::string {
    if (grouped) function = "hash_" + function;
    std::string text = function + "(" + target + ")" + (options ? options->ToString() : "");
    auto [it, inserted] = computed.emplace(text, name);
    if (!inserted) return it->second;
    std::vector<arrow::FieldRef> targets;
    if (!target.empty()) targets.emplace_back(target);
    aggregates.emplace_back(std::move(function), std::move(options), std::move(targets),
                            std::move(name));
    return it->second;
  };
  // Whether an aggregate's argument is an input column that holds no NULL: counting it
  // counts rows (Spark rewrites count of a non-nullable expression the same way).
  auto never_null = [&](const AggregateCall& call) {
    if (call.args.size() != 1 || call.args[0]->kind != BoundExpr::Kind::kColumn) return false;
    for (const auto& field : node->children[0]->output) {
      if (field.name == call.args[0]->field) return !field.nullable;
    }
    return false;
  };
  // The input field of `arg`, projected once.
  auto project = [&](cp::Expression arg, std::string name) -> std::string {
    auto [it, inserted] = projected.emplace(arg.ToString(), std::move(name));
    if (inserted) {
      inputs.push_back(std::move(arg));
      input_names.push_back(it->second);
    }
    return it->second;
  };
  std::vector<cp::Expression> results(node->aggregates.size());
  for (size_t j = 0; j < node->aggregates.size(); ++j) {
    const auto& call = node->aggregates[j];
    std::string name = node->output[keys.size() + j].name;
    if (call.connector_aggregate != nullptr) {
      // Every argument is one input field; the kernel hands them to the function together.
      std::vector<arrow::FieldRef> targets;
      for (size_t a = 0; a < call.args.size(); ++a) {
        ARROW_ASSIGN_OR_RAISE(auto arg, LowerExpression(*call.args[a]));
        targets.emplace_back(project(std::move(arg), fmt::format("#arg{}_{}", j, a)));
      }
      aggregates.emplace_back(grouped ? kHashConnectorAggregate : kConnectorAggregate,
                              std::make_shared<ConnectorAggregateOptions>(call.connector_aggregate),
                              std::move(targets), name);
      results[j] = cp::field_ref(name);
      continue;
    }
    std::string target;
    cp::Expression lowered_arg;
    const bool integral_input = !call.args.empty() && arrow::is_integer(call.args[0]->type->id());
    if (!call.args.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto arg, LowerExpression(*call.args[0]));
      // DISTINCT counts -0.0 and 0.0 (and every NaN) as one value, as Spark's grouping.
      if (call.distinct) arg = NormalizedKey(std::move(arg), *call.args[0]->type);
      // Spark averages integers as doubles (Arrow's mean would add them in 64 bits, wrapping).
      if (call.function == "AVG" && integral_input) {
        cp::CastOptions to_double = cp::CastOptions::Safe(arrow::float64());
        to_double.allow_float_truncate = true;  // beyond 2^53 the nearest double
        arg = cp::call("cast", {std::move(arg)}, std::move(to_double));
      }
      lowered_arg = arg;
      target = project(std::move(arg), fmt::format("#arg{}", j));
    }
    auto only_valid = std::make_shared<cp::CountOptions>(cp::CountOptions::ONLY_VALID);
    // Decimal sums add 128-bit integers (kernels/decimal_sum_kernel.cc) and integral sums
    // 64-bit ones (checked_sum_kernel.cc), failing on overflow as Spark's do.
    const bool decimal_input =
        !call.args.empty() && call.args[0]->type->id() == arrow::Type::DECIMAL128;
    const std::string sum_function = decimal_input    ? "parley_decimal_sum"
                                     : integral_input ? "parley_checked_sum"
                                                      : "sum";
    if (call.function == "AVG" && call.type->id() == arrow::Type::DECIMAL128) {
      std::string sum = aggregate(sum_function, nullptr, target, name + "#sum");
      std::string count = never_null(call)
                              ? aggregate("count_all", nullptr, "", name + "#count")
                              : aggregate("count", only_valid, target, name + "#count");
      auto count_type = arrow::decimal128(arrow::Decimal128Type::kMaxPrecision, 0);
      results[j] =
          cp::call("parley_decimal_divide",
                   {cp::field_ref(sum),
                    cp::call("cast", {cp::field_ref(count)}, cp::CastOptions::Safe(count_type)),
                    cp::literal(arrow::MakeNullScalar(call.type))});
      continue;
    }
    std::string function;
    std::shared_ptr<cp::FunctionOptions> options;
    if (call.function == "COUNT_STAR") {
      function = "count_all";
    } else if (call.function == "COUNT" && !call.distinct && never_null(call)) {
      function = "count_all";
      target.clear();
    } else if (call.function == "COUNT") {
      function = call.distinct ? "count_distinct" : "count";
      options = only_valid;
    } else if (call.function == "SUM") {
      function = sum_function;
    } else if (call.function == "AVG") {
      function = "mean";
    } else {
      function = call.function == "MIN" ? "min" : "max";
    }
    results[j] = cp::field_ref(aggregate(function, options, target, name));
    const auto input_type = call.args.empty() ? arrow::Type::NA : call.args[0]->type->id();
    if ((function == "min" || function == "max") &&
        (input_type == arrow::Type::DOUBLE || input_type == arrow::Type::FLOAT)) {
      // Arrow's min and max pass over NaN; Spark orders NaN above every number, so a max
      // with a NaN is NaN, and so is a min with nothing but NaN.
      std::string nans =
          aggregate("any", std::make_shared<cp::ScalarAggregateOptions>(/*skip_nulls=*/true, 0),
                    project(cp::call("is_nan", {lowered_arg}), target + "#nan"), name + "#nan");
      cp::Expression any_nan = cp::call("coalesce", {cp::field_ref(nans), cp::literal(false)});
      if (function == "min") {
        any_nan = cp::call("and_kleene", {cp::call("is_null", {results[j]}), any_nan});
      }
      auto nan = input_type == arrow::Type::DOUBLE
                     ? arrow::MakeScalar(std::numeric_limits<double>::quiet_NaN())
                     : arrow::MakeScalar(std::numeric_limits<float>::quiet_NaN());
      results[j] = cp::call("if_else", {any_nan, cp::literal(nan), results[j]});
    }
  }
  if (inputs.empty()) {
    // count(*) alone reads no column; give the aggregate one to count rows of.
    inputs.push_back(cp::literal(true));
    input_names.push_back("#rows");
  }
  std::vector<cp::Expression> outputs;
  std::vector<std::string> output_names;
  for (size_t i = 0; i < node->output.size(); ++i) {
    const auto& field = node->output[i];
    cp::Expression value = cp::field_ref(field.name);
    if (i >= keys.size()) {
      const auto& call = node->aggregates[i - keys.size()];
      value = cp::call("cast", {results[i - keys.size()]}, cp::CastOptions::Safe(field.type));
      // A decimal sum past the precision of Spark's sum type overflows as the sum does.
      if (call.function == "SUM" && field.type->id() == arrow::Type::DECIMAL128) {
        value = GuardCall(
            cp::call("cast", {cp::field_ref(ArgumentField(0))}, cp::CastOptions::Safe(field.type)),
            {results[i - keys.size()]}, call.ToString(), "ARITHMETIC_OVERFLOW");
      }
    }
    outputs.push_back(std::move(value));
    output_names.push_back(field.name);
  }
  // Parts shared by several inputs (a product summed twice) are computed once, first.
  auto split = ShareSubexpressions(inputs, "#shared");
  if (!split.shared.empty()) {
    std::vector<cp::Expression> first(split.shared);
    std::vector<std::string> first_names(split.names);
    for (const auto& field : split.input_fields) {
      first.push_back(cp::field_ref(field));
      first_names.push_back(field);
    }
    input = ac::Declaration::Sequence(
        {std::move(input),
         {"project", ac::ProjectNodeOptions(std::move(first), std::move(first_names))}});
    inputs = std::move(split.rewritten);
  }
  return ac::Declaration::Sequence(
      {std::move(input),
       {"project", ac::ProjectNodeOptions(std::move(inputs), std::move(input_names))},
       {"aggregate", ac::AggregateNodeOptions(std::move(aggregates), std::move(keys))},
       {"project", ac::ProjectNodeOptions(std::move(outputs), std::move(output_names))}});
}

}  // namespace parley
