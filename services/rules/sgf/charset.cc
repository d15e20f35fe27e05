#include "services/rules/sgf/charset.h"

#include <iconv.h>

#include <cctype>
#include <cerrno>
#include <string>

namespace gorank::rules::sgf {
namespace {

// The first CA[...] value in the raw bytes, or "" (ASCII scan: the property
// name and the charset names are ASCII in every encoding we accept).
std::string FindDeclaredCharset(std::string_view bytes) {
  for (size_t pos = bytes.find("CA["); pos != std::string_view::npos;
       pos = bytes.find("CA[", pos + 1)) {
    if (pos > 0 && std::isalpha(static_cast<unsigned char>(bytes[pos - 1]))) {
      continue;  // part of a longer identifier
    }
    size_t end = bytes.find(']', pos + 3);
    if (end == std::string_view::npos || end - pos > 64) return "";
    std::string value(bytes.substr(pos + 3, end - pos - 3));
    while (!value.empty() &&
           std::isspace(static_cast<unsigned char>(value.back())))
      value.pop_back();
    size_t first = value.find_first_not_of(" \t\r\n");
    return first == std::string::npos ? "" : value.substr(first);
  }
  return "";
}

// Maps a declared name onto the iconv name we decode with ("" for UTF-8).
std::string CanonicalCharset(const std::string& declared) {
  std::string upper;
  for (char c : declared) {
    if (c != ' ' && c != '_')
      upper.push_back(
          static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  if (upper == "UTF-8" || upper == "UTF8") return "UTF-8";
  // GB2312 and GBK files are routinely mislabelled as each other; GB18030 is
  // a superset of both, so one decoder serves all three.
  if (upper == "GB2312" || upper == "GBK" || upper == "GB18030" ||
      upper == "CP936" || upper == "EUC-CN" || upper == "EUCCN" ||
      upper == "GB2312-80" || upper == "X-GBK" || upper == "WINDOWS-936") {
    return "GB18030";
  }
  if (upper == "BIG5" || upper == "BIG-5" || upper == "CP950")
    return "BIG5-HKSCS";
  if (upper == "ISO-8859-1" || upper == "ISO8859-1" || upper == "LATIN1" ||
      upper == "LATIN-1" || upper == "ISO-8859-1:1987") {
    return "ISO-8859-1";
  }
  return upper;
}

// Detection for undeclared (or wrongly declared) records.
absl::StatusOr<DecodedText> Detect(std::string_view bytes) {
  DecodedText out;
  if (IsValidUtf8(bytes)) {
    out.utf8 = std::string(bytes);
    out.charset = "UTF-8";
    return out;
  }
  absl::StatusOr<std::string> gbk = ConvertToUtf8(bytes, "GB18030");
  if (gbk.ok()) {
    out.utf8 = *std::move(gbk);
    out.charset = "GB18030";
    out.note = "bytes are not UTF-8: decoded as GBK (GB18030)";
    return out;
  }
  if (gbk.status().code() == absl::StatusCode::kInternal) return gbk.status();
  absl::StatusOr<std::string> latin = ConvertToUtf8(bytes, "ISO-8859-1");
  if (!latin.ok()) return latin.status();
  out.utf8 = *std::move(latin);
  out.charset = "ISO-8859-1";
  out.note = "bytes are neither UTF-8 nor GBK: decoded as ISO-8859-1";
  return out;
}

bool IsAscii(std::string_view bytes) {
  for (char c : bytes) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

}  // namespace

bool IsValidUtf8(std::string_view bytes) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    unsigned lo = 0x80, hi = 0xBF;  // bounds for the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + len > n) return false;
    if (s[i + 1] < lo || s[i + 1] > hi) return false;
    for (int k = 2; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

absl::StatusOr<std::string> ConvertToUtf8(std::string_view bytes,
                                          const std::string& from) {
  iconv_t cd = iconv_open("UTF-8", from.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    if (errno == EINVAL) {
      return absl::UnimplementedError("charset '" + from +
                                      "' is not supported by iconv");
    }
    return absl::InternalError("iconv_open failed for '" + from + "'");
  }
  std::string out(bytes.size() * 2 + 16, '\0');
  char* in_ptr = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  size_t produced = 0;
  absl::Status status;
  while (in_left > 0) {
    char* out_ptr = out.data() + produced;
    size_t out_left = out.size() - produced;
    size_t rc = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
    produced = out.size() - out_left;
    if (rc != static_cast<size_t>(-1)) continue;
    if (errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    size_t offset = bytes.size() - in_left;
    status = absl::InvalidArgumentError(
        "bytes at offset " + std::to_string(offset) + " are not valid " + from +
        (errno == EINVAL ? " (truncated character at the end)" : ""));
    break;
  }
  iconv_close(cd);
  if (!status.ok()) return status;
  out.resize(produced);
  return out;
}

absl::StatusOr<DecodedText> DecodeSgfBytes(std::string_view bytes) {
  std::string declared = FindDeclaredCharset(bytes);
  if (declared.empty()) return Detect(bytes);
  std::string charset = CanonicalCharset(declared);
  DecodedText out;
  if (charset == "UTF-8" && IsValidUtf8(bytes)) {
    out.utf8 = std::string(bytes);
    out.charset = "UTF-8";
  } else if (charset != "UTF-8" && !IsAscii(bytes) && IsValidUtf8(bytes)) {
    // Text in a legacy encoding is almost never valid UTF-8 by accident,
    // while UTF-8 files with a stale CA[] (MultiGo's GB2312, SGF's default
    // ISO-8859-1) are common.
    out.utf8 = std::string(bytes);
    out.charset = "UTF-8";
    out.note = "CA[" + declared + "] but the bytes are UTF-8: read as UTF-8";
  } else if (charset != "UTF-8") {
    absl::StatusOr<std::string> converted = ConvertToUtf8(bytes, charset);
    if (converted.ok()) {
      out.utf8 = *std::move(converted);
      out.charset = charset;
    } else if (converted.status().code() == absl::StatusCode::kInternal) {
      return converted.status();
    }
  }
  if (out.charset.empty()) {
    absl::StatusOr<DecodedText> detected = Detect(bytes);
    if (!detected.ok()) return detected.status();
    out = *std::move(detected);
    out.note = "CA[" + declared + "] does not fit the bytes: decoded as " +
               out.charset;
  }
  out.declared = declared;
  return out;
}

}  // namespace gorank::rules::sgf
