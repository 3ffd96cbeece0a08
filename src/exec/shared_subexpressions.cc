#include "exec/shared_subexpressions.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace parley {
namespace {

namespace cp = arrow::compute;

// Count each call of `expression`, by its text. Constant calls are not counted: they are
// computed once per batch anyway.
void CountCalls(const cp::Expression& expression, std::map<std::string, int>* counts,
                std::map<std::string, cp::Expression>* calls) {
  const cp::Expression::Call* call = expression.call();
  if (call == nullptr || cp::FieldsInExpression(expression).empty()) return;
  const std::string text = expression.ToString();
  ++(*counts)[text];
  calls->emplace(text, expression);
  for (const auto& argument : call->arguments) CountCalls(argument, counts, calls);
}

// `expression` with every occurrence of `text` replaced by a reference to `field`; `replaced`
// counts them.
cp::Expression Replace(const cp::Expression& expression, const std::string& text,
                       const std::string& field, int* replaced) {
  const cp::Expression::Call* call = expression.call();
  if (call == nullptr) return expression;
  if (expression.ToString() == text) {
    ++*replaced;
    return cp::field_ref(field);
  }
  std::vector<cp::Expression> arguments;
  for (const auto& argument : call->arguments) {
    arguments.push_back(Replace(argument, text, field, replaced));
  }
  return cp::call(call->function_name, std::move(arguments), call->options);
}

// Adds the names of the fields `expression` reads to `fields`; false for a nested reference.
bool CollectFields(const cp::Expression& expression, std::set<std::string>* fields) {
  for (const arrow::FieldRef& ref : cp::FieldsInExpression(expression)) {
    if (ref.name() == nullptr) return false;
    fields->insert(*ref.name());
  }
  return true;
}

}  // namespace

SharedSubexpressions ShareSubexpressions(const std::vector<cp::Expression>& expressions,
                                         const std::string& prefix) {
  SharedSubexpressions out;
  out.rewritten = expressions;
  std::map<std::string, int> counts;
  std::map<std::string, cp::Expression> calls;
  for (const auto& expression : expressions) CountCalls(expression, &counts, &calls);
  std::vector<std::string> candidates;
  for (const auto& [text, count] : counts) {
    if (count >= 2) candidates.push_back(text);
  }
  if (candidates.empty()) return out;
  std::set<std::string> fields;
  for (const auto& expression : expressions) {
    if (!CollectFields(expression, &fields)) return out;
  }
  // Larger parts first: a part inside a shared one is not shared again on its own.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& text : candidates) {
    const std::string name = prefix + std::to_string(out.shared.size());
    std::vector<cp::Expression> rewritten;
    int replaced = 0;
    for (const auto& expression : out.rewritten) {
      rewritten.push_back(Replace(expression, text, name, &replaced));
    }
    if (replaced < 2) continue;
    out.rewritten = std::move(rewritten);
    out.shared.push_back(calls.at(text));
    out.names.push_back(name);
  }
  if (out.shared.empty()) return out;
  out.input_fields.assign(fields.begin(), fields.end());
  return out;
}

}  // namespace parley
