// What a printed certificate says: from the certificate's facts (number,
// holder, grade, date, agency) to every line of Chinese and English text
// that goes on the sheet, and the verification URL its QR code carries.
// Pure (no I/O, no PDF): certificate_pdf.h draws a CertificateSheet.
#ifndef GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_SHEET_H_
#define GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_SHEET_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "services/certificates/printable/qr_matrix.h"

namespace gorank::certificates::printable {

// The ladders a certificate can be on: Go (SPEC section 2) and Gomoku
// (10k..1k, 1d..9d).
enum class GradeLadder { kKyu, kAmateurDan, kProDan, kGomokuKyu, kGomokuDan };

// The facts, as the server answers them. Strings are UTF-8.
struct PrintableCertificate {
  std::string number;             // nine digits PPPYYSSSS
  std::string holder_name;        // Chinese name, required
  std::string holder_latin_name;  // may be empty
  GradeLadder ladder = GradeLadder::kAmateurDan;
  // kyu 1..30, amateur dan 1..8, pro dan 1..9, Gomoku kyu 1..10, dan 1..9
  int level = 0;
  int year = 0, month = 0, day = 0;  // date of issue
  std::string agency_prefix;         // "000" is the national body
  std::string agency_name;           // Chinese; may be empty
  std::string agency_name_en;        // may be empty
  // Non-zero while the certificate is under public notice (4d-7d): the end
  // of the notice period, Unix seconds.
  int64_t notice_until_unix = 0;
  // The public verification page, e.g. "https://rank.example.org" (the
  // federation's public_base_url); "/verify?number=N" is appended.
  std::string verify_base = "http://127.0.0.1:8080";
  // The certificate's signed statement (services/audit/
  // certificate_statement.h, "GR1...."), appended as "&s=<statement>" so the
  // QR code can be checked offline; empty: the URL alone.
  std::string statement;
};

// Every text of the sheet, ready to draw (UTF-8).
struct CertificateSheet {
  bool gomoku = false;        // a Gomoku certificate (15x15 board behind)
  std::string federation_zh;  // 中国围棋协会
  std::string federation_en;  // Chinese Weiqi Association
  std::string title_zh;       // 围棋业余段位证书
  std::string title_en;       // Certificate of Amateur Dan Grade
  std::string grade_zh;       // 业余三段
  std::string grade_en;       // Amateur 3 Dan
  std::string grade_code;     // 3d
  std::string holder_name;
  std::string holder_latin_name;
  std::string body_zh[2];  // 兹证明 ... / 达到 ... 特发此证。
  std::string body_en[2];
  std::string number;
  std::string date_zh;    // 2026年3月15日
  std::string date_en;    // 15 March 2026
  std::string agency_zh;  // the issuing agency's Chinese name (or its prefix)
  std::string agency_en;
  std::string notice_zh;  // empty unless under public notice
  std::string notice_en;
  std::string verify_url;  // <verify_base>/verify?number=<number>[&s=...]
  QrMatrix qr;             // encodes verify_url
  // The URL printed under the code for typing in: verify_url without the
  // statement (about 190 characters that would run off the page).
  std::string printed_url;
};

// Builds the sheet. INVALID_ARGUMENT (naming the field) when the number is
// not nine digits, the holder name is empty, the level is outside its
// ladder, the date is not a calendar date, or verify_base is not an http(s)
// URL without spaces, quotes, '?' or '#' (at most 200 characters; one
// trailing '/' is dropped).
absl::StatusOr<CertificateSheet> LayOutCertificate(
    const PrintableCertificate& c);

// <base>/verify?number=<number>, the same checks on `base` as above.
absl::StatusOr<std::string> VerifyUrl(const std::string& base,
                                      const std::string& number);

// Chinese grade wording: 业余初段, 业余三段, 业余八段（荣誉）, 业余五级,
// 职业九段, 五子棋三段, 五子棋五级.
// REQUIRES: level inside the ladder.
std::string GradeChinese(GradeLadder ladder, int level);

}  // namespace gorank::certificates::printable

#endif  // GORANK_SERVICES_CERTIFICATES_PRINTABLE_CERTIFICATE_SHEET_H_
