#include "services/cli/integer_args.h"

#include <cstdint>
#include <string>

namespace gorank::cli {
namespace {

// CLI11 names integer types "INT" and "UINT" (vectors of them too); a
// validator's description, when it has one, follows after a ':'.
bool HasType(const CLI::Option& opt, const std::string& type) {
  const std::string name = opt.get_type_name();
  return name == type || name.rfind(type + ":", 0) == 0;
}

// Checks the text, then rewrites it in canonical form ("010" -> "10"): CLI11
// converts the validated text with base 0, which would read "010" as octal.
// Added with transform(): check() would make it work on a copy.
CLI::Validator Decimal(bool is_signed) {
  // No description: the help text keeps showing just INT.
  return CLI::Validator(
      [is_signed](std::string& text) -> std::string {
        int64_t s = 0;
        uint64_t u = 0;
        if (is_signed && ParseDecimal(text, &s)) {
          text = std::to_string(s);
          return "";
        }
        if (!is_signed && ParseDecimal(text, &u)) {
          text = std::to_string(u);
          return "";
        }
        return "'" + text + "' is not a whole number" +
               (is_signed ? "" : " >= 0");
      },
      "");
}

}  // namespace

void RequireDecimalIntegers(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (HasType(*opt, "INT"))
      opt->transform(Decimal(true));
    else if (HasType(*opt, "UINT"))
      opt->transform(Decimal(false));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    RequireDecimalIntegers(*sub);
  }
}

}  // namespace gorank::cli
