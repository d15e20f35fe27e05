#include "services/certificates/printable/certificate_sheet.h"

#include <cstdlib>

namespace gorank::certificates::printable {
namespace {

constexpr const char* kDigitsZh[] = {"",   "一", "二", "三", "四", "五",
                                     "六", "七", "八", "九", "十"};
constexpr const char* kMonthsEn[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

// 1..99 in Chinese numerals: 三, 十二, 二十, 三十.
std::string NumberZh(int n) {
  if (n <= 10) return kDigitsZh[n];
  const int tens = n / 10, ones = n % 10;
  return std::string(tens == 1 ? "" : kDigitsZh[tens]) + "十" + kDigitsZh[ones];
}

bool LevelInLadder(GradeLadder ladder, int level) {
  switch (ladder) {
    case GradeLadder::kKyu:
      return level >= 1 && level <= 30;
    case GradeLadder::kAmateurDan:
      return level >= 1 && level <= 8;
    case GradeLadder::kProDan:
    case GradeLadder::kGomokuDan:
      return level >= 1 && level <= 9;
    case GradeLadder::kGomokuKyu:
      return level >= 1 && level <= 10;
  }
  return false;
}

bool IsKyu(GradeLadder l) {
  return l == GradeLadder::kKyu || l == GradeLadder::kGomokuKyu;
}

bool LeapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool IsDate(int y, int m, int d) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  if (y < 1900 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= kDays[m - 1] + (m == 2 && LeapYear(y) ? 1 : 0);
}

std::string DateZh(int y, int m, int d) {
  return std::to_string(y) + "年" + std::to_string(m) + "月" +
         std::to_string(d) + "日";
}

std::string DateEn(int y, int m, int d) {
  return std::to_string(d) + " " + kMonthsEn[m - 1] + " " + std::to_string(y);
}

// The calendar date in Asia/Shanghai (UTC+8 all year) of a Unix time.
void ShanghaiDate(int64_t unix_seconds, int* y, int* m, int* d) {
  int64_t days = unix_seconds + 8 * 3600;
  days = days >= 0 ? days / 86400 : (days - 86399) / 86400;
  // Days since 1970-01-01 to a proleptic Gregorian date (era arithmetic).
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = static_cast<int>(yoe + era * 400 + (*m <= 2 ? 1 : 0));
}

std::string GradeEnglish(GradeLadder ladder, int level) {
  const std::string n = std::to_string(level);
  switch (ladder) {
    case GradeLadder::kKyu:
      return "Amateur " + n + " Kyu";
    case GradeLadder::kAmateurDan:
      return std::string(level == 8 ? "Honorary " : "") + "Amateur " + n +
             " Dan";
    case GradeLadder::kProDan:
      return "Professional " + n + " Dan";
    case GradeLadder::kGomokuKyu:
      return "Gomoku " + n + " Kyu";
    case GradeLadder::kGomokuDan:
      return "Gomoku " + n + " Dan";
  }
  std::abort();
}

std::string GradeCode(GradeLadder ladder, int level) {
  const char suffix = IsKyu(ladder)                    ? 'k'
                      : ladder == GradeLadder::kProDan ? 'p'
                                                       : 'd';
  return std::to_string(level) + suffix;
}

void SetTitleAndBody(GradeLadder ladder, CertificateSheet& s) {
  const bool kyu = IsKyu(ladder);
  const char* rules_zh = "经审核，符合《中国围棋业余段位制》的规定，";
  const char* rules_en = "the Chinese amateur Go grading";
  if (ladder == GradeLadder::kProDan) {
    s.title_zh = "围棋职业段位证书";
    s.title_en = "Certificate of Professional Dan Grade";
    rules_zh = "经审核，符合中国围棋协会职业段位的规定，";
    rules_en = "the professional grade";
  } else if (s.gomoku) {
    s.title_zh = kyu ? "五子棋级位证书" : "五子棋段位证书";
    s.title_en = kyu ? "Certificate of Gomoku Kyu Grade"
                     : "Certificate of Gomoku Dan Grade";
    rules_zh = "经审核，符合五子棋段位的规定，";
    rules_en = "the Gomoku grading";
  } else {
    s.title_zh = kyu ? "围棋业余级位证书" : "围棋业余段位证书";
    s.title_en = kyu ? "Certificate of Amateur Kyu Grade"
                     : "Certificate of Amateur Dan Grade";
  }
  s.body_zh[0] = rules_zh;
  s.body_zh[1] = (s.gomoku ? "授予" : "授予围棋") + s.grade_zh + "，特发此证。";
  s.body_en[0] =
      std::string(
          "This is to certify that the player named above, examined under ") +
      rules_en;
  s.body_en[1] = "rules, is awarded the grade of " + s.grade_en + " (" +
                 s.grade_code + ").";
}

}  // namespace

std::string GradeChinese(GradeLadder ladder, int level) {
  const std::string dan =
      (level == 1 ? std::string("初") : NumberZh(level)) + "段";
  switch (ladder) {
    case GradeLadder::kKyu:
      return "业余" + NumberZh(level) + "级";
    case GradeLadder::kAmateurDan:
      return "业余" + dan + (level == 8 ? "（荣誉）" : "");
    case GradeLadder::kProDan:
      return "职业" + dan;
    case GradeLadder::kGomokuKyu:
      return "五子棋" + NumberZh(level) + "级";
    case GradeLadder::kGomokuDan:
      return "五子棋" + dan;
  }
  std::abort();
}

absl::StatusOr<std::string> VerifyUrl(const std::string& base,
                                      const std::string& number) {
  std::string b = base;
  const bool https = b.rfind("https://", 0) == 0;
  const size_t host_at = https ? 8 : 7;
  if (!https && b.rfind("http://", 0) != 0) {
    return absl::InvalidArgumentError("verify base '" + base +
                                      "' must start with http:// or https://");
  }
  if (b.size() > host_at && b.back() == '/') b.pop_back();
  if (b.size() <= host_at || b[host_at] == '/' || b.size() > 200) {
    return absl::InvalidArgumentError(
        "verify base '" + base + "' needs a host (and at most 200 characters)");
  }
  for (unsigned char c : b) {
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == '\'' || c == '<' ||
        c == '>' || c == '?' || c == '#' || c == '\\') {
      return absl::InvalidArgumentError(
          "verify base '" + base +
          "' may hold only printable ASCII without spaces, quotes, '?' or '#'");
    }
  }
  return b + "/verify?number=" + number;
}

absl::StatusOr<CertificateSheet> LayOutCertificate(
    const PrintableCertificate& c) {
  if (c.number.size() != 9 ||
      c.number.find_first_not_of("0123456789") != std::string::npos) {
    return absl::InvalidArgumentError("certificate number '" + c.number +
                                      "' is not nine digits");
  }
  if (c.holder_name.empty())
    return absl::InvalidArgumentError("holder name is empty");
  if (!LevelInLadder(c.ladder, c.level)) {
    return absl::InvalidArgumentError("grade level " + std::to_string(c.level) +
                                      " is outside its ladder");
  }
  if (!IsDate(c.year, c.month, c.day)) {
    return absl::InvalidArgumentError(
        "date of issue " + std::to_string(c.year) + "-" +
        std::to_string(c.month) + "-" + std::to_string(c.day) +
        " is not a calendar date");
  }
  CertificateSheet s;
  absl::StatusOr<std::string> url = VerifyUrl(c.verify_base, c.number);
  if (!url.ok()) return url.status();
  s.verify_url = *url;
  s.printed_url = *url;
  if (!c.statement.empty()) {
    // The signed statement rides in the query (the verify page reads it
    // without JavaScript); its characters are base64url and '.'.
    for (char ch : c.statement) {
      const bool safe = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
                        (ch >= 'A' && ch <= 'Z') || ch == '-' || ch == '_' ||
                        ch == '.';
      if (!safe) {
        return absl::InvalidArgumentError(
            "statement has a character that is not base64url or '.'");
      }
    }
    s.verify_url += "&s=" + c.statement;
  }
  absl::StatusOr<QrMatrix> qr = QrMatrix::Encode(s.verify_url);
  if (!qr.ok()) return qr.status();
  s.qr = *qr;

  s.federation_zh = "中国围棋协会";
  s.federation_en = "Chinese Weiqi Association";
  s.gomoku = c.ladder == GradeLadder::kGomokuKyu ||
             c.ladder == GradeLadder::kGomokuDan;
  s.grade_zh = GradeChinese(c.ladder, c.level);
  s.grade_en = GradeEnglish(c.ladder, c.level);
  s.grade_code = GradeCode(c.ladder, c.level);
  SetTitleAndBody(c.ladder, s);
  s.holder_name = c.holder_name;
  s.holder_latin_name = c.holder_latin_name;
  s.number = c.number;
  s.date_zh = DateZh(c.year, c.month, c.day);
  s.date_en = DateEn(c.year, c.month, c.day);
  s.agency_zh =
      c.agency_name.empty() ? "代码 " + c.agency_prefix : c.agency_name;
  s.agency_en = (c.agency_name_en.empty() ? "" : c.agency_name_en + " ") + "(" +
                c.agency_prefix + ")";
  if (c.notice_until_unix > 0) {
    int y = 0, m = 0, d = 0;
    ShanghaiDate(c.notice_until_unix, &y, &m, &d);
    s.notice_zh = "公示期至" + DateZh(y, m, d) + "，期满无异议后生效";
    s.notice_en = "Under public notice until " + DateEn(y, m, d) +
                  "; effective when no objection is upheld";
  }
  return s;
}

}  // namespace gorank::certificates::printable
