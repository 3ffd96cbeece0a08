// Argument checks and implicit casts shared by the type rules.
#include "functions/function_rules.h"

#include <fmt/format.h>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {

namespace cp = arrow::compute;
namespace {

bool IsNull(const arrow::DataType& type) { return type.id() == arrow::Type::NA; }

bool IsDatetime(const arrow::DataType& type) {
  return type.id() == arrow::Type::DATE32 || type.id() == arrow::Type::TIMESTAMP;
}

}  // namespace

std::string QuotedArgumentTypes(const FunctionCall& call, const std::string& separator) {
  std::vector<std::string> types;
  for (const auto& arg : call.args) types.push_back("\"" + SqlTypeName(*arg->type) + "\"");
  return fmt::format("{}", fmt::join(types, separator));
}

std::string Ordinal(size_t index) {
  static const char* kOrdinals[] = {"first", "second",  "third",  "fourth", "fifth",
                                    "sixth", "seventh", "eighth", "ninth",  "tenth"};
  if (index < std::size(kOrdinals)) return kOrdinals[index];
  return fmt::format("{}th", index + 1);
}

Status CheckArgCount(const FunctionCall& call, size_t min, size_t max) {
  size_t count = call.args.size();
  if (count >= min && count <= max) return Status::OK();
  std::string expected = min == max ? std::to_string(min) : fmt::format("[{}, {}]", min, max);
  if (max == SIZE_MAX) expected = fmt::format("at least {}", min);
  return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                       fmt::format("The `{}` requires {} parameters but the actual number is {}.",
                                   call.name, expected, count),
                       call.expr.pos);
}

Status UnexpectedInputType(const FunctionCall& call, size_t index, std::string_view required) {
  const sql::Expr& operand = *call.expr.children[index];
  return AnalysisError(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: The {} parameter requires "
                  "the \"{}\" type, however \"{}\" has the type \"{}\".",
                  call.expr.source_text, Ordinal(index), required, operand.source_text,
                  SqlTypeName(*call.args[index]->type)),
      call.expr.pos);
}

Result<BoundExprPtr> StringArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsStringLike(type) || IsNull(type) || IsNumeric(type) || IsDatetime(type) ||
      type.id() == arrow::Type::BOOL || type.id() == arrow::Type::BINARY) {
    return CastTo(arg, arrow::utf8());
  }
  return UnexpectedInputType(call, index, "STRING");
}

Result<BoundExprPtr> IntArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsIntegral(type) || IsStringLike(type) || IsNull(type)) return CastTo(arg, arrow::int32());
  return UnexpectedInputType(call, index, "INT");
}

Result<BoundExprPtr> DoubleArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsNumeric(type) || IsStringLike(type) || IsNull(type)) return CastTo(arg, arrow::float64());
  return UnexpectedInputType(call, index, "DOUBLE");
}

Result<BoundExprPtr> BigintArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsNumeric(type) || IsStringLike(type) || IsNull(type)) return CastTo(arg, arrow::int64());
  return UnexpectedInputType(call, index, "BIGINT");
}

Result<BoundExprPtr> BindAs(const FunctionCall& call, const std::string& name,
                            std::vector<BoundExprPtr> args) {
  const TypeRule* rule = FunctionRegistry::Builtin().FindTypeRule(name);
  if (rule == nullptr) return Status::Invalid("no built-in function ", name);
  FunctionCall as{call.expr,        name, std::move(args), call.bind_operator, call.bind_lambda,
                  call.parse_schema};
  return (*rule)(as);
}

void AddKernelLowering(FunctionRegistry* registry, const std::string& bound,
                       const std::string& kernel) {
  registry->AddLowering(bound, [kernel](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call(kernel, std::move(args)));
  });
}

Result<BoundExprPtr> NumericArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsNumeric(type)) return arg;
  if (IsStringLike(type)) return CastTo(arg, arrow::float64());
  if (IsNull(type)) return CastTo(arg, arrow::int32());
  return UnexpectedInputType(call, index, "NUMERIC");
}

Result<BoundExprPtr> DateArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (IsDatetime(type) || IsStringLike(type) || IsNull(type)) return CastTo(arg, arrow::date32());
  return UnexpectedInputType(call, index, "DATE");
}

Result<BoundExprPtr> TimestampArg(const FunctionCall& call, size_t index) {
  const auto& arg = call.args[index];
  const auto& type = *arg->type;
  if (type.id() == arrow::Type::TIMESTAMP) return arg;
  if (IsDatetime(type) || IsStringLike(type) || IsNull(type)) {
    return CastTo(arg, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"));
  }
  return UnexpectedInputType(call, index, "TIMESTAMP");
}

Result<std::optional<std::string>> ConstantStringArg(const FunctionCall& call, size_t index) {
  ARROW_ASSIGN_OR_RAISE(auto arg, StringArg(call, index));
  if (arg->kind != BoundExpr::Kind::kLiteral) {
    return AnalysisError(
        "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: the input \"{}\" should "
                    "be a foldable \"STRING\" expression; however, got \"{}\".",
                    call.expr.source_text, call.expr.children[index]->source_text,
                    call.expr.children[index]->source_text),
        call.expr.pos);
  }
  if (!arg->literal->is_valid) return std::nullopt;
  return LiteralString(*arg);
}

Result<std::vector<BoundExprPtr>> ArgsOfCommonType(
    const FunctionCall& call, const std::vector<BoundExprPtr>& args,
    const std::shared_ptr<arrow::DataType>& null_type) {
  std::shared_ptr<arrow::DataType> type = arrow::null();
  for (const auto& arg : args) {
    auto common = CommonType(type, arg->type);
    if (common == nullptr) {
      return AnalysisError(
          "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
          fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to `{}` should "
                      "all be the same type, but it's (\"{}\" and \"{}\").",
                      call.expr.source_text, call.name, SqlTypeName(*type),
                      SqlTypeName(*arg->type)),
          call.expr.pos);
    }
    type = common;
  }
  if (type->id() == arrow::Type::NA) type = null_type;
  std::vector<BoundExprPtr> out;
  for (const auto& arg : args) out.push_back(CastTo(arg, type));
  return out;
}

BoundExprPtr StringLiteral(std::string value) {
  return MakeBoundLiteral(std::make_shared<arrow::StringScalar>(std::move(value)));
}

BoundExprPtr IntLiteral(int32_t value) {
  return MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(value));
}

std::string LiteralString(const BoundExpr& literal) {
  return static_cast<const arrow::StringScalar&>(*literal.literal).ToString();
}

void AddRowFunction(FunctionRegistry* registry, std::vector<std::string> names, std::string kernel,
                    std::vector<ArgReader> readers, std::shared_ptr<arrow::DataType> type) {
  registry->AddTypeRule(names,
                        [kernel, readers, type](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, readers.size()));
                          std::vector<BoundExprPtr> args;
                          for (size_t i = 0; i < readers.size(); ++i) {
                            ARROW_ASSIGN_OR_RAISE(auto arg, readers[i](call, i));
                            args.push_back(std::move(arg));
                          }
                          return Call(kernel, std::move(args), type);
                        });
  AddKernelLowering(registry, kernel, kernel);
}

}  // namespace parley
