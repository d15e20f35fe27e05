#include "services/certificates/printable/hpdf_document.h"

#include <cstdio>

namespace gorank::certificates::printable {

void OnHpdfError(HPDF_STATUS error_no, HPDF_STATUS detail_no, void* user_data) {
  auto* e = static_cast<HpdfError*>(user_data);
  if (e->error_no == 0) {
    e->error_no = error_no;
    e->detail_no = detail_no;
  }
}

absl::Status HpdfFailure(const HpdfError& error, const std::string& where) {
  char code[64];
  std::snprintf(code, sizeof code, "libharu error 0x%04X (detail %u)",
                static_cast<unsigned>(error.error_no),
                static_cast<unsigned>(error.detail_no));
  return absl::InternalError(where + ": " + code);
}

absl::StatusOr<std::string> SaveHpdf(HPDF_Doc pdf, const HpdfError& error) {
  if (HPDF_SaveToStream(pdf) != HPDF_OK)
    return HpdfFailure(error, "writing the PDF");
  std::string out(HPDF_GetStreamSize(pdf), '\0');
  HPDF_UINT32 size = static_cast<HPDF_UINT32>(out.size());
  HPDF_ResetStream(pdf);
  if (HPDF_ReadFromStream(pdf, reinterpret_cast<HPDF_BYTE*>(out.data()),
                          &size) != HPDF_OK &&
      size != out.size()) {
    return HpdfFailure(error, "reading the PDF back");
  }
  out.resize(size);
  return out;
}

}  // namespace gorank::certificates::printable
