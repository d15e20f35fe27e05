// Integer options and arguments of rankctl. std::stoll/stoi inside an option
// callback threw past CLI11 and aborted rankctl (exit 134) on "--player abc";
// CLI11 2.1's own conversion reads "010" as octal and "0x1f" as hex, skips
// leading blanks and saturates an int64 overflow to its maximum. Integer
// options are typed CLI11 options, and RequireDecimalIntegers makes all of
// them accept only a plain decimal number in range: anything else is a usage
// error naming the option (exit 2).
#ifndef GORANK_SERVICES_CLI_INTEGER_ARGS_H_
#define GORANK_SERVICES_CLI_INTEGER_ARGS_H_

#include <charconv>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "CLI/CLI.hpp"

namespace gorank::cli {

// True (and *out set) when `text` is decimal digits, with a leading '-' for a
// signed T, whose value fits T; false (*out untouched) for anything else:
// empty, blanks, '+', "0x..", trailing text, out of range.
template <typename T>
bool ParseDecimal(std::string_view text, T* out) {
  static_assert(std::is_integral_v<T>);
  const char* const last = text.data() + text.size();
  T value{};
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (text.empty() || ec != std::errc() || ptr != last) return false;
  *out = value;
  return true;
}

// Adds the decimal check above to every integer-typed option and positional
// argument of `app` and of all its subcommands, recursively (CLI11 then still
// checks the range of narrower types such as int32); a value that passes is
// read as decimal ("010" is 10). Call once, after every
// command is registered and before parsing. A failing value throws
// CLI::ValidationError "NAME: 'abc' is not a whole number".
void RequireDecimalIntegers(CLI::App& app);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_INTEGER_ARGS_H_
