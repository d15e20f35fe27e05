// libFuzzer target: certificate numbers (certificates::CertificateNumber::
// Parse). A parsed number must print to nine digits that parse back to it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "services/certificates/certificate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gorank::certificates::CertificateNumber;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto number = CertificateNumber::Parse(text);
  if (!number.ok()) return 0;
  const std::string printed = number->ToString();
  auto again = CertificateNumber::Parse(printed);
  if (printed.size() != 9 || !again.ok() || *again != *number) std::abort();
  return 0;
}
