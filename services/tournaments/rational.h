// Rational: an exact fraction of two 64-bit integers, used where a tiebreak
// is not an integer (the withdrawn-player score P + A x unplayed of SPEC
// section 4, and the Swiss total built on it). Never a float: comparisons
// cross-multiply in 128 bits, so equal values compare equal.
#ifndef GORANK_SERVICES_TOURNAMENTS_RATIONAL_H_
#define GORANK_SERVICES_TOURNAMENTS_RATIONAL_H_

#include <compare>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>

namespace gorank::tournaments {

// Value type, always normalised (den > 0, gcd(num, den) == 1);
// thread-compatible. Magnitudes in this module stay far below 2^40, so the
// arithmetic below cannot overflow for any event the product accepts.
class Rational {
 public:
  constexpr Rational() = default;
  // Implicit on purpose: an integer is a rational.
  constexpr Rational(int64_t n) : num_(n), den_(1) {}  // NOLINT
  // REQUIRES: den != 0 (aborts otherwise).
  Rational(int64_t num, int64_t den) : num_(num), den_(den) {
    if (den_ == 0) std::abort();
    Normalise();
  }

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool IsInteger() const { return den_ == 1; }

  friend Rational operator+(Rational a, Rational b) {
    return Rational(a.num_ * b.den_ + b.num_ * a.den_, a.den_ * b.den_);
  }
  friend Rational operator-(Rational a, Rational b) {
    return Rational(a.num_ * b.den_ - b.num_ * a.den_, a.den_ * b.den_);
  }
  friend Rational operator*(Rational a, Rational b) {
    return Rational(a.num_ * b.num_, a.den_ * b.den_);
  }
  // REQUIRES: b != 0.
  friend Rational operator/(Rational a, Rational b) {
    return Rational(a.num_ * b.den_, a.den_ * b.num_);
  }
  Rational& operator+=(Rational b) { return *this = *this + b; }

  friend bool operator==(const Rational& a, const Rational& b) = default;
  friend std::strong_ordering operator<=>(const Rational& a,
                                          const Rational& b) {
    const Wide l = static_cast<Wide>(a.num_) * b.den_;
    const Wide r = static_cast<Wide>(b.num_) * a.den_;
    return l <=> r;
  }

  // "7", "-2.5", "14.25"; a fraction whose decimal does not terminate is
  // written as a mixed number, "10 1/3", "-1 2/3", "1/3", so that no digit
  // shown is rounded.
  std::string ToString() const;
  // A decimal with at most `places` digits after the point, rounded half
  // away from zero ("10.33"), for files whose columns hold one number
  // without spaces. REQUIRES: 0 <= places <= 6.
  std::string ToDecimal(int places) const;

 private:
  __extension__ typedef __int128 Wide;  // GCC/Clang; silences -Wpedantic

  void Normalise() {
    if (den_ < 0) {
      num_ = -num_;
      den_ = -den_;
    }
    const int64_t g = std::gcd(num_ < 0 ? -num_ : num_, den_);
    if (g > 1) {
      num_ /= g;
      den_ /= g;
    }
  }

  int64_t num_ = 0;
  int64_t den_ = 1;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_RATIONAL_H_
