// Structural equality of bound expressions.
#include "plan/expression_equality.h"

#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {

namespace {

// `same_field` decides whether two column references are the same column.
template <typename SameField>
bool Same(const BoundExpr& a, const BoundExpr& b, const SameField& same_field) {
  if (a.kind != b.kind || !a.type->Equals(*b.type)) return false;
  switch (a.kind) {
    case BoundExpr::Kind::kColumn: return same_field(a.field, b.field);
    case BoundExpr::Kind::kLiteral: return a.literal->Equals(*b.literal);
    case BoundExpr::Kind::kCall:
      if (a.function != b.function || a.has_else != b.has_else || a.args.size() != b.args.size()) {
        return false;
      }
      for (size_t i = 0; i < a.args.size(); ++i) {
        if (!Same(*a.args[i], *b.args[i], same_field)) return false;
      }
      return true;
  }
  return false;
}

}  // namespace

bool SameExpression(const BoundExpr& a, const BoundExpr& b) {
  return Same(a, b, [](const std::string& x, const std::string& y) { return x == y; });
}

bool SameExpression(const BoundExpr& a, const BoundExpr& b,
                    const std::map<std::string, std::string>& fields) {
  return Same(a, b, [&](const std::string& x, const std::string& y) {
    auto it = fields.find(x);
    return it != fields.end() && it->second == y;
  });
}

}  // namespace parley
