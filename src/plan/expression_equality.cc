// Structural equality of bound expressions.
#include "plan/expression_equality.h"

#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {

bool SameExpression(const BoundExpr& a, const BoundExpr& b) {
  if (a.kind != b.kind || !a.type->Equals(*b.type)) return false;
  switch (a.kind) {
    case BoundExpr::Kind::kColumn: return a.field == b.field;
    case BoundExpr::Kind::kLiteral: return a.literal->Equals(*b.literal);
    case BoundExpr::Kind::kCall:
      if (a.function != b.function || a.has_else != b.has_else || a.args.size() != b.args.size()) {
        return false;
      }
      for (size_t i = 0; i < a.args.size(); ++i) {
        if (!SameExpression(*a.args[i], *b.args[i])) return false;
      }
      return true;
  }
  return false;
}

}  // namespace parley
