// What every libharu document of rankctl shares (the printed certificate,
// the pairing sheets): the error callback that keeps the first error, the
// INTERNAL status naming it, and the document's bytes.
#ifndef GORANK_SERVICES_CERTIFICATES_PRINTABLE_HPDF_DOCUMENT_H_
#define GORANK_SERVICES_CERTIFICATES_PRINTABLE_HPDF_DOCUMENT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hpdf.h"

namespace gorank::certificates::printable {

// libharu reports errors through a callback; the first one is kept.
struct HpdfError {
  HPDF_STATUS error_no = 0;
  HPDF_STATUS detail_no = 0;
};

// The callback for HPDF_New(&OnHpdfError, &error): `user_data` is the
// HpdfError.
void OnHpdfError(HPDF_STATUS error_no, HPDF_STATUS detail_no, void* user_data);

// INTERNAL: "<where>: libharu error 0x.... (detail n)".
absl::Status HpdfFailure(const HpdfError& error, const std::string& where);

// The bytes of `pdf` as saved now; INTERNAL (HpdfFailure) when libharu fails.
absl::StatusOr<std::string> SaveHpdf(HPDF_Doc pdf, const HpdfError& error);

}  // namespace gorank::certificates::printable

#endif  // GORANK_SERVICES_CERTIFICATES_PRINTABLE_HPDF_DOCUMENT_H_
