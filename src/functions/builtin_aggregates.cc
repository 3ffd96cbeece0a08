#include "functions/builtin_aggregates.h"

#include <cmath>
#include <cstring>
#include <map>

#include "arrow/array.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

enum class Statistic {
  kStddevSamp,
  kStddevPop,
  kVarSamp,
  kVarPop,
  kSkewness,
  kKurtosis,
  kCovarPop,
  kCovarSamp,
  kCorr,
  kRegrSxx,
  kRegrSyy,
  kRegrSxy,
  kRegrSlope,
  kRegrIntercept,
  kRegrR2,
  kBitAnd,
  kBitOr,
  kBitXor,
};

const std::map<std::string, Statistic>& StatisticsByName() {
  static const std::map<std::string, Statistic> kStatistics = {
      {"stddev", Statistic::kStddevSamp},
      {"std", Statistic::kStddevSamp},
      {"stddev_samp", Statistic::kStddevSamp},
      {"stddev_pop", Statistic::kStddevPop},
      {"variance", Statistic::kVarSamp},
      {"var_samp", Statistic::kVarSamp},
      {"var_pop", Statistic::kVarPop},
      {"skewness", Statistic::kSkewness},
      {"kurtosis", Statistic::kKurtosis},
      {"covar_pop", Statistic::kCovarPop},
      {"covar_samp", Statistic::kCovarSamp},
      {"corr", Statistic::kCorr},
      {"regr_sxx", Statistic::kRegrSxx},
      {"regr_syy", Statistic::kRegrSyy},
      {"regr_sxy", Statistic::kRegrSxy},
      {"regr_slope", Statistic::kRegrSlope},
      {"regr_intercept", Statistic::kRegrIntercept},
      {"regr_r2", Statistic::kRegrR2},
      {"bit_and", Statistic::kBitAnd},
      {"bit_or", Statistic::kBitOr},
      {"bit_xor", Statistic::kBitXor},
  };
  return kStatistics;
}

bool IsBitwise(Statistic statistic) {
  return statistic == Statistic::kBitAnd || statistic == Statistic::kBitOr ||
         statistic == Statistic::kBitXor;
}

bool IsPaired(Statistic statistic) {
  return statistic >= Statistic::kCovarPop && statistic <= Statistic::kRegrR2;
}

// The central moments of one column, up to the fourth (Spark's CentralMomentAgg buffer).
struct Moments : AggregationState {
  double n = 0, avg = 0, m2 = 0, m3 = 0, m4 = 0;

  void Add(double x) {
    double new_n = n + 1.0;
    double delta = x - avg;
    double delta_n = delta / new_n;
    double new_m2 = m2 + delta * (delta - delta_n);
    double delta2 = delta * delta;
    double delta_n2 = delta_n * delta_n;
    double new_m3 = m3 - 3.0 * delta_n * new_m2 + delta * (delta2 - delta_n2);
    m4 = m4 - 4.0 * delta_n * new_m3 - 6.0 * delta_n2 * new_m2 +
         delta * (delta * delta2 - delta_n * delta_n2);
    m3 = new_m3;
    m2 = new_m2;
    avg += delta_n;
    n = new_n;
  }

  void Merge(const Moments& other) {
    double n1 = n, n2 = other.n;
    double new_n = n1 + n2;
    double delta = other.avg - avg;
    double delta_n = new_n == 0.0 ? 0.0 : delta / new_n;
    double new_m2 = m2 + other.m2 + delta * delta_n * n1 * n2;
    double new_m3 = m3 + other.m3 + delta_n * delta_n * delta * n1 * n2 * (n1 - n2) +
                    3.0 * delta_n * (n1 * other.m2 - n2 * m2);
    m4 = m4 + other.m4 +
         delta_n * delta_n * delta_n * delta * n1 * n2 * (n1 * n1 - n1 * n2 + n2 * n2) +
         6.0 * delta_n * delta_n * (n1 * n1 * other.m2 + n2 * n2 * m2) +
         4.0 * delta_n * (n1 * other.m3 - n2 * m3);
    m3 = new_m3;
    m2 = new_m2;
    avg += delta_n * n2;
    n = new_n;
  }
};

// The co-moments of two columns over the rows where both are non-NULL (Spark's Covariance,
// PearsonCorrelation and Regression buffers). x is the first argument, except for regr_slope and
// regr_intercept, where it is the second (the independent variable); regr_sxx and regr_syy are
// the central moments of the second and first argument over the same rows (`second`, `first`).
struct CoMoments : AggregationState {
  double n = 0, x_avg = 0, y_avg = 0, ck = 0, x_mk = 0, y_mk = 0;
  Moments first, second;

  void Add(double x, double y) {
    double new_n = n + 1.0;
    double dx = x - x_avg;
    double dy = y - y_avg;
    double new_x_avg = x_avg + dx / new_n;
    double new_y_avg = y_avg + dy / new_n;
    ck += dx * (y - new_y_avg);
    x_mk += dx * (x - new_x_avg);
    y_mk += dy * (y - new_y_avg);
    x_avg = new_x_avg;
    y_avg = new_y_avg;
    n = new_n;
  }

  void Merge(const CoMoments& other) {
    double n1 = n, n2 = other.n;
    double new_n = n1 + n2;
    double dx = other.x_avg - x_avg;
    double dx_n = new_n == 0.0 ? 0.0 : dx / new_n;
    double dy = other.y_avg - y_avg;
    double dy_n = new_n == 0.0 ? 0.0 : dy / new_n;
    ck += other.ck + dx * dy_n * n1 * n2;
    x_mk += other.x_mk + dx * dx_n * n1 * n2;
    y_mk += other.y_mk + dy * dy_n * n1 * n2;
    x_avg += dx_n * n2;
    y_avg += dy_n * n2;
    n = new_n;
    first.Merge(other.first);
    second.Merge(other.second);
  }
};

// The fold of a bitwise aggregate; `seen` tells an empty group (NULL) from a value.
struct Bits : AggregationState {
  bool seen = false;
  int64_t value = 0;
};

template <typename State>
std::string BytesOf(const State& state) {
  std::string bytes(sizeof(State), '\0');
  std::memcpy(bytes.data(), static_cast<const void*>(&state), sizeof(State));
  return bytes;
}

template <typename State>
Result<std::unique_ptr<AggregationState>> StateOf(std::string_view bytes) {
  if (bytes.size() != sizeof(State)) return Status::Invalid("damaged aggregation state");
  auto state = std::make_unique<State>();
  std::memcpy(static_cast<void*>(state.get()), bytes.data(), sizeof(State));
  return std::unique_ptr<AggregationState>(std::move(state));
}

Status DivideByZero() {
  return MakeError(arrow::StatusCode::Invalid, "DIVIDE_BY_ZERO",
                   "Division by zero. Use `try_divide` to tolerate divisor being 0 and return "
                   "NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                   "bypass this error.");
}

class StatisticAggregate : public AggregateFunction {
 public:
  StatisticAggregate(std::string name, Statistic statistic,
                     std::vector<std::shared_ptr<arrow::DataType>> input_types)
      : name_(std::move(name)), statistic_(statistic), input_types_(std::move(input_types)) {}

  std::string name() const override { return name_; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return input_types_;
  }
  std::shared_ptr<arrow::DataType> result_type() const override {
    return IsBitwise(statistic_) ? input_types_[0] : arrow::float64();
  }

  std::unique_ptr<AggregationState> NewState() const override {
    if (IsBitwise(statistic_)) return std::make_unique<Bits>();
    if (IsPaired(statistic_)) return std::make_unique<CoMoments>();
    return std::make_unique<Moments>();
  }

  Status Update(AggregationState* state, const arrow::ArrayVector& args,
                int64_t length) const override {
    if (IsBitwise(statistic_)) return UpdateBits(static_cast<Bits*>(state), *args[0], length);
    if (IsPaired(statistic_)) {
      const bool swapped =
          statistic_ == Statistic::kRegrSlope || statistic_ == Statistic::kRegrIntercept;
      const auto& x = static_cast<const arrow::DoubleArray&>(*args[swapped ? 1 : 0]);
      const auto& y = static_cast<const arrow::DoubleArray&>(*args[swapped ? 0 : 1]);
      const auto& first = static_cast<const arrow::DoubleArray&>(*args[0]);
      const auto& second = static_cast<const arrow::DoubleArray&>(*args[1]);
      auto* moments = static_cast<CoMoments*>(state);
      for (int64_t i = 0; i < length; ++i) {
        if (!x.IsValid(i) || !y.IsValid(i)) continue;
        moments->Add(x.Value(i), y.Value(i));
        moments->first.Add(first.Value(i));
        moments->second.Add(second.Value(i));
      }
      return Status::OK();
    }
    const auto& values = static_cast<const arrow::DoubleArray&>(*args[0]);
    auto* moments = static_cast<Moments*>(state);
    for (int64_t i = 0; i < length; ++i) {
      if (values.IsValid(i)) moments->Add(values.Value(i));
    }
    return Status::OK();
  }

  Status Merge(AggregationState* state, const AggregationState& other) const override {
    if (IsBitwise(statistic_)) {
      auto* into = static_cast<Bits*>(state);
      const auto& from = static_cast<const Bits&>(other);
      if (from.seen) Fold(into, from.value);
    } else if (IsPaired(statistic_)) {
      static_cast<CoMoments*>(state)->Merge(static_cast<const CoMoments&>(other));
    } else {
      static_cast<Moments*>(state)->Merge(static_cast<const Moments&>(other));
    }
    return Status::OK();
  }

  Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const override {
    if (IsBitwise(statistic_)) {
      const auto& bits = static_cast<const Bits&>(state);
      if (!bits.seen) return arrow::MakeNullScalar(result_type());
      return arrow::MakeScalar(arrow::int64(), bits.value).ValueOrDie()->CastTo(result_type());
    }
    ARROW_ASSIGN_OR_RAISE(std::optional<double> value, Evaluate(state));
    if (!value.has_value()) return arrow::MakeNullScalar(arrow::float64());
    return std::make_shared<arrow::DoubleScalar>(*value);
  }

  Result<std::string> Serialize(const AggregationState& state) const override {
    if (IsBitwise(statistic_)) return BytesOf(static_cast<const Bits&>(state));
    if (IsPaired(statistic_)) return BytesOf(static_cast<const CoMoments&>(state));
    return BytesOf(static_cast<const Moments&>(state));
  }

  Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const override {
    if (IsBitwise(statistic_)) return StateOf<Bits>(bytes);
    if (IsPaired(statistic_)) return StateOf<CoMoments>(bytes);
    return StateOf<Moments>(bytes);
  }

 private:
  void Fold(Bits* bits, int64_t value) const {
    if (!bits->seen) {
      bits->value = value;
      bits->seen = true;
    } else if (statistic_ == Statistic::kBitAnd) {
      bits->value &= value;
    } else if (statistic_ == Statistic::kBitOr) {
      bits->value |= value;
    } else {
      bits->value ^= value;
    }
  }

  Status UpdateBits(Bits* bits, const arrow::Array& values, int64_t length) const {
    for (int64_t i = 0; i < length; ++i) {
      if (!values.IsValid(i)) continue;
      ARROW_ASSIGN_OR_RAISE(auto scalar, values.GetScalar(i));
      ARROW_ASSIGN_OR_RAISE(auto wide, scalar->CastTo(arrow::int64()));
      Fold(bits, static_cast<const arrow::Int64Scalar&>(*wide).value);
    }
    return Status::OK();
  }

  Result<std::optional<double>> Evaluate(const AggregationState& state) const {
    using Value = std::optional<double>;
    if (IsPaired(statistic_)) {
      const auto& s = static_cast<const CoMoments&>(state);
      if (s.n == 0.0) return Value();
      switch (statistic_) {
        case Statistic::kCovarPop: return Value(s.ck / s.n);
        case Statistic::kCovarSamp: return s.n == 1.0 ? Value() : Value(s.ck / (s.n - 1.0));
        case Statistic::kCorr: {
          if (s.n == 1.0) return Value();
          double divisor = std::sqrt(s.x_mk * s.y_mk);
          if (divisor == 0.0) return DivideByZero();
          return Value(s.ck / divisor);
        }
        case Statistic::kRegrSxx: return Value(s.second.m2);
        case Statistic::kRegrSyy: return Value(s.first.m2);
        case Statistic::kRegrSxy: return Value(s.ck);
        case Statistic::kRegrSlope: return s.x_mk == 0.0 ? Value() : Value(s.ck / s.x_mk);
        case Statistic::kRegrIntercept:
          return s.x_mk == 0.0 ? Value() : Value(s.y_avg - s.ck / s.x_mk * s.x_avg);
        case Statistic::kRegrR2: {
          // x is the first argument, y: NULL where the independent variable is constant.
          if (s.n < 2.0 || s.y_mk == 0.0) return Value();
          if (s.x_mk == 0.0) return Value(1.0);
          double corr = s.ck / std::sqrt(s.x_mk * s.y_mk);
          return Value(corr * corr);
        }
        default: return Value();
      }
    }
    const auto& m = static_cast<const Moments&>(state);
    if (m.n == 0.0) return Value();
    switch (statistic_) {
      case Statistic::kStddevSamp:
        return m.n == 1.0 ? Value() : Value(std::sqrt(m.m2 / (m.n - 1.0)));
      case Statistic::kStddevPop: return Value(std::sqrt(m.m2 / m.n));
      case Statistic::kVarSamp: return m.n == 1.0 ? Value() : Value(m.m2 / (m.n - 1.0));
      case Statistic::kVarPop: return Value(m.m2 / m.n);
      case Statistic::kSkewness:
        return m.m2 == 0.0 ? Value() : Value(std::sqrt(m.n) * m.m3 / std::sqrt(m.m2 * m.m2 * m.m2));
      case Statistic::kKurtosis:
        return m.m2 == 0.0 ? Value() : Value(m.n * m.m4 / (m.m2 * m.m2) - 3.0);
      default: return Value();
    }
  }

  std::string name_;
  Statistic statistic_;
  std::vector<std::shared_ptr<arrow::DataType>> input_types_;
};

}  // namespace

bool IsBuiltinLibraryAggregate(const std::string& name) {
  return StatisticsByName().count(name) > 0;
}

const std::vector<std::string>& BuiltinLibraryAggregateNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& [name, statistic] : StatisticsByName()) names.push_back(name);
    return names;
  }();
  return kNames;
}

size_t BuiltinAggregateArity(const std::string& name) {
  return IsPaired(StatisticsByName().at(name)) ? 2 : 1;
}

bool BuiltinAggregateIsBitwise(const std::string& name) {
  return IsBitwise(StatisticsByName().at(name));
}

std::shared_ptr<const AggregateFunction> BuiltinAggregate(
    const std::string& name, const std::vector<std::shared_ptr<arrow::DataType>>& arg_types) {
  return std::make_shared<StatisticAggregate>(name, StatisticsByName().at(name), arg_types);
}

}  // namespace parley
