// Functions of integers and bits: factorial, bin, hex / unhex, conv, shiftleft / shiftright /
// shiftrightunsigned (and the operators <<, >>, >>>), bit_count, bit_get / getbit; and the
// numeric shorthands negative, positive, zeroifnull, nullifzero, equal_null, isnull, isnotnull;
// typeof.
#include "arrow/compute/api.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

bool IsBinaryType(const arrow::DataType& type) { return type.id() == arrow::Type::BINARY; }

// The shift of an INT (TINYINT and SMALLINT widen to it) or a BIGINT by an INT distance.
TypeRule ShiftRule(std::string kernel) {
  return [kernel](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    BoundExprPtr value;
    if (call.args[0]->type->id() == arrow::Type::INT64) {
      value = call.args[0];
    } else {
      ARROW_ASSIGN_OR_RAISE(value, IntArg(call, 0));
    }
    ARROW_ASSIGN_OR_RAISE(auto distance, IntArg(call, 1));
    return Call(kernel, {value, distance}, value->type);
  };
}

int BitWidth(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return 8;
    case arrow::Type::INT16: return 16;
    case arrow::Type::INT32: return 32;
    default: return 64;
  }
}

}  // namespace

void RegisterIntegralFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"factorial"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, IntArg(call, 0));
    return Call("parley_factorial", {value}, arrow::int64());
  });
  registry->AddTypeRule({"bin"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, BigintArg(call, 0));
    return Call("parley_bin", {value}, arrow::utf8());
  });
  registry->AddTypeRule({"hex"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    const auto& type = *call.args[0]->type;
    if (type.id() == arrow::Type::STRING || IsBinaryType(type)) {
      return Call("parley_hex_bytes", {CastTo(call.args[0], arrow::binary())}, arrow::utf8());
    }
    ARROW_ASSIGN_OR_RAISE(auto value, BigintArg(call, 0));
    return Call("parley_hex_integer", {value}, arrow::utf8());
  });
  registry->AddTypeRule({"unhex"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    return Call("parley_unhex", {text}, arrow::binary());
  });
  registry->AddTypeRule({"conv"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto from, IntArg(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto to, IntArg(call, 2));
    return Call("parley_conv", {text, from, to}, arrow::utf8());
  });
  registry->AddTypeRule({"shiftleft", "<<"}, ShiftRule("parley_shift_left"));
  registry->AddTypeRule({"shiftright", ">>"}, ShiftRule("parley_shift_right"));
  registry->AddTypeRule({"shiftrightunsigned", ">>>"}, ShiftRule("parley_shift_right_unsigned"));
  registry->AddTypeRule({"bit_count"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    const auto& type = *call.args[0]->type;
    if (!IsIntegral(type) && type.id() != arrow::Type::BOOL && type.id() != arrow::Type::NA) {
      return UnexpectedInputType(call, 0, "(\"INTEGRAL\" or \"BOOLEAN\")");
    }
    return Call("parley_bit_count", {CastTo(call.args[0], arrow::int64())}, arrow::int32());
  });
  registry->AddTypeRule(
      {"bit_get", "getbit"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
        ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
        const auto& type = *call.args[0]->type;
        if (!IsIntegral(type) && type.id() != arrow::Type::NA) {
          return UnexpectedInputType(call, 0, "INTEGRAL");
        }
        ARROW_ASSIGN_OR_RAISE(auto position, IntArg(call, 1));
        return Call("parley_bit_get",
                    {CastTo(call.args[0], arrow::int64()), position, IntLiteral(BitWidth(type))},
                    arrow::int8());
      });
  for (const char* kernel :
       {"parley_factorial", "parley_bin", "parley_hex_bytes", "parley_hex_integer", "parley_unhex",
        "parley_conv", "parley_shift_left", "parley_shift_right", "parley_shift_right_unsigned",
        "parley_bit_count", "parley_bit_get"}) {
    AddKernelLowering(registry, kernel, kernel);
  }

  registry->AddTypeRule({"negative"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, NumericArg(call, 0));
    return Call("NEGATE", {value}, value->type);
  });
  registry->AddTypeRule({"positive"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return NumericArg(call, 0);
  });
  registry->AddTypeRule({"zeroifnull"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return BindAs(call, "nvl", {call.args[0], IntLiteral(0)});
  });
  registry->AddTypeRule({"nullifzero"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return BindAs(call, "nullif", {call.args[0], IntLiteral(0)});
  });
  registry->AddTypeRule({"equal_null"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    return call.bind_operator("<=>", call.args[0], call.args[1]);
  });
  // typeof(x): the argument's type in Spark's catalog form, a constant.
  registry->AddTypeRule({"typeof"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return StringLiteral(DescribeTypeName(*call.args[0]->type));
  });
  registry->AddTypeRule({"isnull"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return Call("IS_NULL", {call.args[0]}, arrow::boolean());
  });
  registry->AddTypeRule({"isnotnull"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return Call("IS_NOT_NULL", {call.args[0]}, arrow::boolean());
  });
}

}  // namespace parley
