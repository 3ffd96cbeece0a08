// Spark's functions that look into JSON text (json_document.h), each NULL for text that is not
// JSON or has no such part:
//   parley_get_json_object(utf8 json, utf8 path) -> utf8: the part a path of `$`, `.name`,
//     `['name']`, `[n]` and `[*]` names; a string as its text, anything else as JSON. Where a
//     wildcard matched, one match is written as JSON and several as a JSON array of them;
//   parley_json_field(utf8 json, utf8 key) -> utf8: a top-level field as get_json_object writes
//     it (json_tuple's columns);
//   parley_json_array_length(utf8) -> int32 and parley_json_object_keys(utf8) -> list<utf8>: of
//     a top-level array or object.
#include <optional>
#include <string>
#include <vector>

#include "arrow/array/builder_nested.h"
#include "kernels/json_document.h"
#include "kernels/kernel_support.h"
#include "kernels/row_kernel.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

// One step of a JSON path.
struct PathStep {
  enum class Kind { kKey, kIndex, kEveryElement };
  Kind kind;
  std::string key;
  int64_t index = 0;
};

// The steps of `path`; nullopt for a path Spark does not accept.
std::optional<std::vector<PathStep>> ParsePath(std::string_view path) {
  if (path.empty() || path[0] != '$') return std::nullopt;
  std::vector<PathStep> steps;
  size_t i = 1;
  while (i < path.size()) {
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[", i + 1);
      if (end == std::string_view::npos) end = path.size();
      std::string key(path.substr(i + 1, end - i - 1));
      if (key.empty() || key == "*") return std::nullopt;
      steps.push_back({PathStep::Kind::kKey, std::move(key)});
      i = end;
    } else if (path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view inside = path.substr(i + 1, close - i - 1);
      if (inside == "*") {
        steps.push_back({PathStep::Kind::kEveryElement, ""});
      } else if (inside.size() >= 2 && inside.front() == '\'' && inside.back() == '\'') {
        steps.push_back({PathStep::Kind::kKey, std::string(inside.substr(1, inside.size() - 2))});
      } else {
        if (inside.empty() || inside.find_first_not_of("0123456789") != std::string::npos) {
          return std::nullopt;
        }
        PathStep step{PathStep::Kind::kIndex, ""};
        step.index = std::stoll(std::string(inside));
        steps.push_back(std::move(step));
      }
      i = close + 1;
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

// Collects into `matches` the parts of `value` that `steps` (from `step` on) name.
void Match(const JsonValue& value, const std::vector<PathStep>& steps, size_t step,
           std::vector<const JsonValue*>* matches) {
  if (step == steps.size()) {
    matches->push_back(&value);
    return;
  }
  const PathStep& s = steps[step];
  switch (s.kind) {
    case PathStep::Kind::kKey:
      if (value.kind == JsonValue::Kind::kObject) {
        if (const JsonValue* field = value.Field(s.key)) Match(*field, steps, step + 1, matches);
      }
      break;
    case PathStep::Kind::kIndex:
      if (value.kind == JsonValue::Kind::kArray &&
          s.index < static_cast<int64_t>(value.items.size())) {
        Match(value.items[s.index], steps, step + 1, matches);
      }
      break;
    case PathStep::Kind::kEveryElement:
      if (value.kind == JsonValue::Kind::kArray) {
        for (const auto& item : value.items) Match(item, steps, step + 1, matches);
      }
      break;
  }
}

// A matched part as get_json_object writes it: a string as its text, null as NULL.
std::optional<std::string> PartText(const JsonValue& value) {
  if (value.kind == JsonValue::Kind::kNull) return std::nullopt;
  if (value.kind == JsonValue::Kind::kString) return value.text;
  return WriteJson(value);
}

std::optional<std::string> GetJsonObject(std::string_view json, std::string_view path) {
  auto steps = ParsePath(path);
  if (!steps) return std::nullopt;
  auto document = ParseJson(json);
  if (!document) return std::nullopt;
  std::vector<const JsonValue*> matches;
  Match(*document, *steps, 0, &matches);
  bool wildcard = false;
  for (const auto& step : *steps) wildcard |= step.kind == PathStep::Kind::kEveryElement;
  if (matches.empty()) return std::nullopt;
  if (!wildcard) return PartText(*matches.front());
  if (matches.size() == 1) return WriteJson(*matches.front());
  JsonValue all;
  all.kind = JsonValue::Kind::kArray;
  for (const JsonValue* match : matches) all.items.push_back(*match);
  return WriteJson(all);
}

Status ObjectKeysExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn texts(batch[0]);
  arrow::ListBuilder builder(ctx->memory_pool(), std::make_shared<arrow::StringBuilder>());
  auto* keys = static_cast<arrow::StringBuilder*>(builder.value_builder());
  for (int64_t row = 0; row < batch.length; ++row) {
    std::optional<JsonValue> document;
    if (texts.IsValid(row)) document = ParseJson(texts.Value(row));
    if (!document || document->kind != JsonValue::Kind::kObject) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    ARROW_RETURN_NOT_OK(builder.Append());
    for (const auto& key : document->keys) ARROW_RETURN_NOT_OK(keys->Append(key));
  }
  return FinishInto(&builder, out);
}

}  // namespace

Status RegisterJsonKernels(cp::FunctionRegistry* registry) {
  using Text = std::string_view;
  Status status = RegisterRowFunction<std::string, Text, Text>(
      registry, "parley_get_json_object",
      [](Text json, Text path) { return GetJsonObject(json, path); },
      "The part of JSON text a path names");
  if (status.ok()) {
    status = RegisterRowFunction<std::string, Text, Text>(
        registry, "parley_json_field",
        [](Text json, Text key) -> std::optional<std::string> {
          auto document = ParseJson(json);
          if (!document || document->kind != JsonValue::Kind::kObject) return std::nullopt;
          const JsonValue* field = document->Field(key);
          if (field == nullptr) return std::nullopt;
          return PartText(*field);
        },
        "A top-level field of a JSON object");
  }
  if (status.ok()) {
    status = RegisterRowFunction<int32_t, Text>(
        registry, "parley_json_array_length",
        [](Text json) -> std::optional<int32_t> {
          auto document = ParseJson(json);
          if (!document || document->kind != JsonValue::Kind::kArray) return std::nullopt;
          return static_cast<int32_t>(document->items.size());
        },
        "The number of elements of a JSON array");
  }
  if (!status.ok()) return status;
  return AddFunction(registry, "parley_json_object_keys", {cp::InputType(arrow::utf8())},
                     cp::OutputType(arrow::list(arrow::utf8())), ObjectKeysExec,
                     "The keys of a JSON object");
}

}  // namespace parley::kernels
