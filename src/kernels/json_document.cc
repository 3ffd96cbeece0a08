#include "kernels/json_document.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kernels/java_number_text.h"

namespace parley::kernels {
namespace {

using Json = nlohmann::json;

// Builds a JsonValue tree from nlohmann's parse events.
class TreeBuilder : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return Add(JsonValue{}); }
  bool boolean(bool value) override {
    JsonValue v;
    v.kind = JsonValue::Kind::kBoolean;
    v.boolean = value;
    return Add(std::move(v));
  }
  bool number_integer(number_integer_t value) override {
    return AddInteger(std::to_string(value), static_cast<double>(value));
  }
  bool number_unsigned(number_unsigned_t value) override {
    return AddInteger(std::to_string(value), static_cast<double>(value));
  }
  bool number_float(number_float_t value, const string_t& text) override {
    // An integer too long for 64 bits keeps its digits.
    if (text.find_first_of(".eE") == std::string::npos) return AddInteger(text, value);
    JsonValue v;
    v.kind = JsonValue::Kind::kFloat;
    v.text = text;
    v.number = value;
    return Add(std::move(v));
  }
  bool string(string_t& value) override {
    JsonValue v;
    v.kind = JsonValue::Kind::kString;
    v.text = std::move(value);
    return Add(std::move(v));
  }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return Open(JsonValue::Kind::kObject); }
  bool key(string_t& value) override {
    open_.back().keys.push_back(std::move(value));
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(JsonValue::Kind::kArray); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  std::optional<JsonValue> Take() {
    if (!done_) return std::nullopt;
    return std::move(root_);
  }

 private:
  bool AddInteger(std::string text, double number) {
    JsonValue v;
    v.kind = JsonValue::Kind::kInteger;
    v.text = std::move(text);
    v.number = number;
    return Add(std::move(v));
  }
  bool Add(JsonValue value) {
    if (open_.empty()) {
      root_ = std::move(value);
      done_ = true;
    } else {
      open_.back().items.push_back(std::move(value));
    }
    return true;
  }
  bool Open(JsonValue::Kind kind) {
    JsonValue v;
    v.kind = kind;
    open_.push_back(std::move(v));
    return true;
  }
  bool Close() {
    JsonValue closed = std::move(open_.back());
    open_.pop_back();
    return Add(std::move(closed));
  }

  std::vector<JsonValue> open_;
  JsonValue root_;
  bool done_ = false;
};

void Write(const JsonValue& value, std::string* out) {
  switch (value.kind) {
    case JsonValue::Kind::kNull: out->append("null"); break;
    case JsonValue::Kind::kBoolean: out->append(value.boolean ? "true" : "false"); break;
    case JsonValue::Kind::kInteger: out->append(value.text); break;
    case JsonValue::Kind::kFloat: out->append(JavaFloatingPointText(value.number)); break;
    case JsonValue::Kind::kString: AppendJsonString(value.text, out); break;
    case JsonValue::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out->push_back(',');
        Write(value.items[i], out);
      }
      out->push_back(']');
      break;
    case JsonValue::Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendJsonString(value.keys[i], out);
        out->push_back(':');
        Write(value.items[i], out);
      }
      out->push_back('}');
      break;
  }
}

}  // namespace

const JsonValue* JsonValue::Field(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

std::optional<JsonValue> ParseJson(std::string_view text) {
  TreeBuilder builder;
  bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json,
                            /*strict=*/false);
  if (!ok) return std::nullopt;
  return builder.Take();
}

std::string WriteJson(const JsonValue& value) {
  std::string out;
  Write(value, &out);
  return out;
}

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(*out), "\\u{:04X}", static_cast<unsigned char>(c));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

}  // namespace parley::kernels
