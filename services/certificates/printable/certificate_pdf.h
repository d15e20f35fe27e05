// Draws a CertificateSheet as a one-page A4 landscape PDF with libharu: a
// framed certificate in Chinese and English, the QR code as filled squares.
// Chinese text uses libharu's built-in CID fonts SimSun and SimHei with the
// GBK-EUC-H encoding (no font file needed; a viewer substitutes an installed
// Chinese font, poppler needs poppler-data); Latin text uses the standard
// Times and Helvetica fonts (WinAnsi).
#ifndef GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_PDF_H_
#define GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_PDF_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/certificates/printable/certificate_sheet.h"

namespace gorank::certificates::printable {

// The PDF file's bytes. The same sheet gives the same bytes (no dates or
// random ids are written). INVALID_ARGUMENT when a Chinese text (e.g. the
// holder's name) has a character outside GBK, or a Latin text (the Latin
// name, the agency's English name) one outside Windows-1252, naming the
// text; INTERNAL when libharu fails. Thread-safe (one libharu document a
// call).
absl::StatusOr<std::string> RenderCertificatePdf(const CertificateSheet& sheet);

// Encodes UTF-8 text for the PDF's fonts: `charset` is an iconv name
// ("GBK", "CP1252"). INVALID_ARGUMENT naming `what` when the text is not
// UTF-8 or has a character the charset lacks.
absl::StatusOr<std::string> EncodeText(const std::string& what,
                                       const std::string& utf8,
                                       const char* charset);

}  // namespace gorank::certificates::printable

#endif  // GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_PDF_H_
