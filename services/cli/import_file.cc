#include "services/cli/import_file.h"

#include <iconv.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/json_util.h"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::cli {
namespace {

constexpr size_t kMaxFileBytes = size_t{512} << 20;

// The length of the valid UTF-8 sequence at `s[i]`, 0 when there is none
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

// The offset of the first byte that is not valid UTF-8, or npos.
size_t FirstInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8SequenceLength(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

int LineOfOffset(std::string_view s, size_t offset) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + offset, '\n'));
}

absl::StatusOr<std::string> Gb18030ToUtf8(const std::string& in) {
  iconv_t cd = iconv_open("UTF-8", "GB18030");
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    return absl::InternalError("this system's iconv cannot decode GB18030");
  }
  std::string out(in.size() * 2 + 16, '\0');
  char* src = const_cast<char*>(in.data());
  size_t src_left = in.size();
  char* dst = out.data();
  size_t dst_left = out.size();
  absl::Status status;
  while (src_left > 0) {
    if (iconv(cd, &src, &src_left, &dst, &dst_left) != static_cast<size_t>(-1))
      continue;
    if (errno == E2BIG) {
      const size_t used = out.size() - dst_left;
      out.resize(out.size() * 2);
      dst = out.data() + used;
      dst_left = out.size() - used;
      continue;
    }
    const size_t at = in.size() - src_left;
    status = absl::InvalidArgumentError(
        absl::StrCat("line ", LineOfOffset(in, at), ": byte ", at,
                     " is neither UTF-8 nor GB18030; save the file as UTF-8 "
                     "(CSV UTF-8 in Excel)"));
    break;
  }
  iconv_close(cd);
  if (!status.ok()) return status;
  out.resize(out.size() - dst_left);
  return out;
}

std::string Lower(std::string s) {
  absl::AsciiStrToLower(&s);
  return std::string(absl::StripAsciiWhitespace(s));
}

}  // namespace

bool ParseFileEncoding(std::string_view text, FileEncoding* out) {
  const std::string t = Lower(std::string(text));
  if (t == "auto") {
    *out = FileEncoding::kAuto;
  } else if (t == "utf-8" || t == "utf8") {
    *out = FileEncoding::kUtf8;
  } else if (t == "gb18030" || t == "gbk" || t == "gb2312") {
    *out = FileEncoding::kGb18030;
  } else {
    return false;
  }
  return true;
}

absl::StatusOr<CsvFile> ParseCsv(std::string bytes, FileEncoding encoding,
                                 std::string name) {
  CsvFile file;
  file.name = std::move(name);
  file.sha256 = audit::HexEncode(audit::Sha256(bytes));
  const bool bom = bytes.rfind("\xEF\xBB\xBF", 0) == 0;
  std::string text;
  if (encoding == FileEncoding::kGb18030) {
    auto decoded = Gb18030ToUtf8(bytes);
    if (!decoded.ok()) return decoded.status();
    text = *std::move(decoded);
    file.encoding = "gb18030";
  } else if (bom || FirstInvalidUtf8(bytes) == std::string_view::npos) {
    text = bom ? bytes.substr(3) : std::move(bytes);
    file.encoding = bom ? "utf-8 with BOM" : "utf-8";
  } else if (encoding == FileEncoding::kUtf8) {
    const size_t at = FirstInvalidUtf8(bytes);
    return absl::InvalidArgumentError(
        absl::StrCat("line ", LineOfOffset(bytes, at), ": byte ", at,
                     " is not UTF-8 (try --encoding gb18030, or auto)"));
  } else {
    auto decoded = Gb18030ToUtf8(bytes);
    if (!decoded.ok()) return decoded.status();
    text = *std::move(decoded);
    file.encoding = "gb18030";
  }
  if (bom && FirstInvalidUtf8(text) != std::string_view::npos) {
    const size_t at = FirstInvalidUtf8(text);
    return absl::InvalidArgumentError(absl::StrCat(
        "line ", LineOfOffset(text, at),
        ": the file starts with a UTF-8 BOM but is not UTF-8 further on"));
  }

  // RFC 4180 records.
  std::vector<CsvRecord> records;
  size_t i = 0;
  int line = 1;
  while (i < text.size()) {
    CsvRecord rec;
    rec.line = line;
    const size_t start = i;
    std::string field;
    bool quoted_field = false;
    bool end_of_record = false;
    while (!end_of_record) {
      if (i >= text.size()) {
        rec.fields.push_back(std::move(field));
        break;
      }
      const char c = text[i];
      if (c == '"' && field.empty() && !quoted_field) {
        quoted_field = true;
        ++i;
        const int open_line = line;
        while (true) {
          if (i >= text.size()) {
            return absl::InvalidArgumentError(absl::StrCat(
                "line ", open_line,
                ": a quoted field is never closed (a \" is missing)"));
          }
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i++];
        }
        continue;
      }
      if (c == ',') {
        rec.fields.push_back(std::move(field));
        field.clear();
        quoted_field = false;
        ++i;
        continue;
      }
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
        continue;
      }
      if (c == '\n') {
        rec.fields.push_back(std::move(field));
        ++i;
        ++line;
        end_of_record = true;
        continue;
      }
      if (quoted_field) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line,
                         ": text after the closing quote of a field (quote the "
                         "whole field)"));
      }
      field += c;
      ++i;
    }
    size_t end = i;
    while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r'))
      --end;
    rec.text = text.substr(start, end - start);
    const bool blank = std::all_of(
        rec.fields.begin(), rec.fields.end(), [](const std::string& f) {
          return absl::StripAsciiWhitespace(f).empty();
        });
    if (!blank) records.push_back(std::move(rec));
  }
  if (records.empty()) {
    return absl::InvalidArgumentError(
        "the file is empty: it needs a header row naming its columns");
  }
  file.header_text = records.front().text;
  std::set<std::string> seen;
  for (size_t c = 0; c < records.front().fields.size(); ++c) {
    std::string col = Lower(records.front().fields[c]);
    if (col.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", records.front().line, ": column ", c + 1,
                       " of the header has no name"));
    }
    if (!seen.insert(col).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", records.front().line, ": column '", col,
                       "' appears twice in the header"));
    }
    file.header.push_back(std::move(col));
  }
  records.erase(records.begin());
  file.records = std::move(records);
  return file;
}

absl::StatusOr<CsvFile> ReadCsvFile(const std::string& path,
                                    FileEncoding encoding) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    if (err == EACCES)
      return absl::PermissionDeniedError(path + ": permission denied");
    return absl::NotFoundError(path + ": cannot be opened (" +
                               std::strerror(err) + ")");
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0)
    return absl::InvalidArgumentError(path + ": not a regular file");
  if (static_cast<size_t>(size) > kMaxFileBytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": ", size, " bytes; files over 512 MiB are refused (split it)"));
  }
  in.seekg(0);
  std::string bytes(static_cast<size_t>(size), '\0');
  in.read(bytes.data(), size);
  if (!in) return absl::DataLossError(path + ": read failed");
  return ParseCsv(std::move(bytes), encoding, path);
}

absl::StatusOr<std::map<std::string, int>> MapColumns(
    const CsvFile& file, const std::vector<std::string>& known,
    const std::vector<std::string>& required) {
  std::map<std::string, int> columns;
  for (size_t c = 0; c < file.header.size(); ++c) {
    if (std::find(known.begin(), known.end(), file.header[c]) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(file.name, " line 1: unknown column '", file.header[c],
                       "'; the columns are ", absl::StrJoin(known, ", ")));
    }
    columns[file.header[c]] = static_cast<int>(c);
  }
  std::vector<std::string> missing;
  for (const auto& r : required) {
    if (!columns.contains(r)) missing.push_back(r);
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        file.name, " line 1: the header lacks the required column",
        missing.size() > 1 ? "s " : " ", absl::StrJoin(missing, ", ")));
  }
  return columns;
}

std::string Field(const CsvRecord& record,
                  const std::map<std::string, int>& columns,
                  const std::string& name) {
  auto it = columns.find(name);
  if (it == columns.end() ||
      it->second >= static_cast<int>(record.fields.size()))
    return "";
  return std::string(absl::StripAsciiWhitespace(record.fields[it->second]));
}

ImportProgress::ImportProgress(std::string label, int64_t total, std::FILE* out)
    : label_(std::move(label)),
      total_(total),
      out_(out),
      tty_(isatty(fileno(out)) != 0) {
  Draw();
}

void ImportProgress::Advance(int64_t rows) {
  done_ += rows;
  Draw();
}

void ImportProgress::Draw() {
  const int tenth = total_ == 0 ? 10 : static_cast<int>(done_ * 10 / total_);
  if (tty_) {
    constexpr int kWidth = 30;
    const int filled =
        total_ == 0 ? kWidth : static_cast<int>(done_ * kWidth / total_);
    std::fprintf(out_, "\r%s [%s%s] %lld/%lld rows", label_.c_str(),
                 std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(),
                 static_cast<long long>(done_), static_cast<long long>(total_));
    std::fflush(out_);
  } else if (tenth != last_tenth_) {
    std::fprintf(out_, "%s: %lld/%lld rows\n", label_.c_str(),
                 static_cast<long long>(done_), static_cast<long long>(total_));
  }
  last_tenth_ = tenth;
}

void ImportProgress::Finish(const std::string& what) {
  if (tty_) std::fprintf(out_, "\n");
  std::fprintf(out_, "%s\n", what.c_str());
  std::fflush(out_);
}

void AddImportArgs(CLI::App& cmd, ImportArgs& a) {
  cmd.add_option("FILE", a.file,
                 "the CSV file (UTF-8, UTF-8 with BOM or GB18030)")
      ->required();
  cmd.add_flag("--dry-run", a.dry_run,
               "check every row and report; store nothing");
  cmd.add_option("--encoding", a.encoding, "auto|utf-8|gb18030")
      ->capture_default_str();
  a.skip_bad =
      cmd.add_option(
             "--skip-bad", a.refused_out,
             "store the good rows even when some are refused, and write "
             "the refused ones to OUT (default FILE.refused.csv; give OUT "
             "as --skip-bad=OUT)")
          ->expected(0, 1);
}

namespace {

// FILE without ".csv", then ".refused.csv".
std::string DefaultRefusedPath(const std::string& file) {
  std::string base = file;
  if (base.size() > 4 && Lower(base.substr(base.size() - 4)) == ".csv") {
    base.resize(base.size() - 4);
  }
  return base + ".refused.csv";
}

}  // namespace

std::optional<OpenedImport> OpenImport(const ImportArgs& a,
                                       const std::vector<std::string>& known,
                                       const std::vector<std::string>& required,
                                       const std::string& rows,
                                       int* exit_status) {
  const auto usage =
      [&](const std::string& message) -> std::optional<OpenedImport> {
    std::fprintf(stderr, "rankctl: %s\n",
                 message.c_str());  // as CliContext::Usage
    *exit_status = kExitUsage;
    return std::nullopt;
  };
  FileEncoding encoding;
  if (!ParseFileEncoding(a.encoding, &encoding)) {
    return usage("--encoding must be auto, utf-8 or gb18030");
  }
  absl::StatusOr<CsvFile> file = ReadCsvFile(a.file, encoding);
  if (!file.ok()) return usage(std::string(file.status().message()));
  absl::StatusOr<std::map<std::string, int>> columns =
      MapColumns(*file, known, required);
  if (!columns.ok()) return usage(std::string(columns.status().message()));
  if (file->records.empty())
    return usage(a.file + ": no " + rows + " rows after the header");
  OpenedImport out;
  out.file = *std::move(file);
  out.columns = *std::move(columns);
  out.skip_bad = a.skip_bad != nullptr && a.skip_bad->count() > 0;
  if (out.skip_bad) {
    out.refused_out =
        a.refused_out.empty() ? DefaultRefusedPath(a.file) : a.refused_out;
  }
  const size_t slash = a.file.find_last_of('/');
  out.file_name =
      slash == std::string::npos ? a.file : a.file.substr(slash + 1);
  return out;
}

int ReportImport(const std::string& what, const CsvFile& file,
                 const v1::ImportSummary& summary, bool json, bool dry_run,
                 const std::string& refused_out) {
  if (!refused_out.empty() && summary.refused() > 0) {
    std::set<int> lines;
    for (const auto& r : summary.refusals()) lines.insert(r.line());
    std::ofstream out(refused_out, std::ios::binary | std::ios::trunc);
    out << "\xEF\xBB\xBF" << file.header_text << "\r\n";
    for (const auto& rec : file.records) {
      if (lines.contains(rec.line)) out << rec.text << "\r\n";
    }
    if (!out) {
      std::fprintf(stderr, "rankctl: %s: cannot be written\n",
                   refused_out.c_str());
      return kExitCallFailed;
    }
  }
  const bool failed = summary.refused() > 0 && !summary.stored();
  if (json) {
    std::string out;
    google::protobuf::util::JsonPrintOptions opts;
    opts.always_print_primitive_fields = true;
    opts.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(summary, &out, opts);
    std::printf("%s\n", out.c_str());
    return failed ? kExitCallFailed : kExitOk;
  }
  std::printf("%s: %s (%s, %d rows, sha256 %s)\n", what.c_str(),
              file.name.c_str(), file.encoding.c_str(), summary.rows(),
              file.sha256.substr(0, 12).c_str());
  for (const auto& r : summary.refusals()) {
    if (r.column().empty()) {
      std::printf("  refused line %d: %s\n", r.line(), r.reason().c_str());
    } else {
      std::printf("  refused line %d, column %s: %s\n", r.line(),
                  r.column().c_str(), r.reason().c_str());
    }
  }
  for (const auto& o : summary.outcomes()) {
    if (!o.note().empty())
      std::printf("  note line %d: %s\n", o.line(), o.note().c_str());
  }
  std::printf("added %d, matched %d, refused %d", summary.added(),
              summary.matched(), summary.refused());
  if (dry_run) {
    std::printf(": dry run, nothing stored%s\n",
                summary.refused() > 0
                    ? " (the refused rows would stop the import)"
                    : "");
  } else if (summary.stored()) {
    if (summary.added() == 0 && summary.refused() == 0) {
      std::printf(": nothing changed (every row is already in the registry)\n");
    } else {
      std::printf(": stored%s\n",
                  summary.refused() > 0 ? "; the refused rows were not" : "");
    }
  } else {
    std::printf(
        ": nothing stored (fix the refused rows, or store the good ones with "
        "--skip-bad)\n");
  }
  if (!refused_out.empty() && summary.refused() > 0) {
    std::printf("refused rows written to %s\n", refused_out.c_str());
  }
  return failed ? kExitCallFailed : kExitOk;
}

}  // namespace gorank::cli
