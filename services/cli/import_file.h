// What the three file imports of rankctl share (`player import`, `cert
// import`, `rating import`): reading a CSV file in the encodings Excel
// writes, mapping its header to the columns a command knows, sending the
// rows on an import stream with a progress display, and reporting the
// server's ImportSummary (text, --json, and the refused rows to a file).
//
// The server parses and validates every field; this file only decodes the
// file and splits it into rows and fields.
#ifndef GORANK_SERVICES_CLI_IMPORT_FILE_H_
#define GORANK_SERVICES_CLI_IMPORT_FILE_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "gorank/v1/common.pb.h"
#include "grpcpp/support/sync_stream.h"
#include "services/cli/cli_context.h"

namespace gorank::cli {

enum class FileEncoding { kAuto, kUtf8, kGb18030 };

// "auto", "utf-8" or "gb18030" (also "utf8", "gbk"); false for anything else.
bool ParseFileEncoding(std::string_view text, FileEncoding* out);

struct CsvRecord {
  int line = 0;                     // the line the record starts on (header: 1)
  std::vector<std::string> fields;  // UTF-8, as the file has them (unquoted)
  std::string text;  // the record's lines, UTF-8, without the final newline
};

struct CsvFile {
  std::string name;      // the path as given
  std::string sha256;    // hex of the file's bytes, as they are on disk
  std::string encoding;  // "utf-8", "utf-8 with BOM" or "gb18030"
  std::vector<std::string> header;  // column names: trimmed, lower case
  std::string header_text;          // the header line, UTF-8
  std::vector<CsvRecord> records;   // data rows; blank lines are skipped
};

// RFC 4180 CSV: comma-separated, fields in double quotes may hold commas,
// quotes ("") and line breaks; CRLF or LF. With kAuto a UTF-8 BOM means
// UTF-8, valid UTF-8 is UTF-8, anything else is decoded as GB18030 (what
// Excel on Chinese Windows writes; GBK is a subset). Errors are
// INVALID_ARGUMENT naming the line: no header row, an unterminated quote, a
// byte sequence that is neither encoding, a duplicate or empty column name.
absl::StatusOr<CsvFile> ParseCsv(std::string bytes, FileEncoding encoding,
                                 std::string name = "");
// Reads `path` (NOT_FOUND / PERMISSION_DENIED when it cannot be opened;
// files over 512 MiB are RESOURCE_EXHAUSTED) and parses it.
absl::StatusOr<CsvFile> ReadCsvFile(const std::string& path,
                                    FileEncoding encoding);

// Column name -> index in the file's header. Every name in `required` must
// be present; a header column not in `known` is an error (a misspelt column
// would otherwise be silently ignored). The message lists the known columns.
absl::StatusOr<std::map<std::string, int>> MapColumns(
    const CsvFile& file, const std::vector<std::string>& known,
    const std::vector<std::string>& required);

// The field of `record` in column `name` ("" when the file has no such
// column or the row is short).
std::string Field(const CsvRecord& record,
                  const std::map<std::string, int>& columns,
                  const std::string& name);

// Progress of sending rows: on a terminal a bar redrawn in place, otherwise
// a plain line at every 10%. Writes to `out` (stderr by default, so --json
// output on stdout stays clean).
class ImportProgress {
 public:
  ImportProgress(std::string label, int64_t total, std::FILE* out = stderr);
  void Advance(int64_t rows);
  // Ends the display with `what` ("waiting for the server ...").
  void Finish(const std::string& what);

 private:
  void Draw();
  std::string label_;
  int64_t total_;
  int64_t done_ = 0;
  int last_tenth_ = -1;
  std::FILE* out_;
  bool tty_;
};

// What every import command takes: FILE, --dry-run, --encoding
// auto|utf-8|gb18030, --skip-bad[=OUT].
struct ImportArgs {
  std::string file;
  bool dry_run = false;
  std::string encoding = "auto";
  std::string refused_out;  // OUT of --skip-bad=OUT
  CLI::Option* skip_bad = nullptr;
};
// Adds those arguments to `cmd` (bound to `a`, which must outlive parsing).
void AddImportArgs(CLI::App& cmd, ImportArgs& a);

// An import file read and its header checked.
struct OpenedImport {
  CsvFile file;
  std::map<std::string, int> columns;
  bool skip_bad = false;
  std::string refused_out;  // where refused rows go: "" without --skip-bad
  std::string file_name;    // the name sent to the server: no folders
};
// Reads a.file, maps its header to `known` (`required` must be there) and
// checks it has rows (`rows`: "player", "certificate", ...). On any problem
// prints the usage error, sets *exit_status and returns nullopt.
std::optional<OpenedImport> OpenImport(const ImportArgs& a,
                                       const std::vector<std::string>& known,
                                       const std::vector<std::string>& required,
                                       const std::string& rows,
                                       int* exit_status);

// The rows of one message of an import stream.
inline constexpr int kImportRowsPerMessage = 1000;

// Prints `summary` for `file` (text, or JSON with --json) and, when
// `refused_out` is not empty and rows were refused, writes the header and
// the refused records, as the file had them, to that file (UTF-8 with BOM).
// `what` names the command ("player import"). Returns the exit status:
// kExitOk when the file was stored (or a dry run found nothing to refuse),
// kExitCallFailed when rows were refused and nothing was stored.
int ReportImport(const std::string& what, const CsvFile& file,
                 const v1::ImportSummary& summary, bool json, bool dry_run,
                 const std::string& refused_out);

// Sends `file` on one import stream and returns rankctl's exit status:
// `open(stub, client_context, &response)` opens the stream (e.g.
// `stub.ImportPlayers(c, r)`; Response has an ImportSummary `summary`),
// `options(&request)` sets the options of the
// first message, `fill(record, &request)` adds one record as a row. The
// deadline is ctx.timeout_seconds per 10,000 rows (at least that once).
template <typename Service, typename Request, typename Response,
          typename OpenFn, typename OptionsFn, typename FillFn>
int StreamImport(CliContext& ctx, const std::string& what, const CsvFile& file,
                 bool dry_run, const std::string& refused_out, OpenFn open,
                 OptionsFn options, FillFn fill) {
  auto channel = ctx.Channel();
  if (!channel) return kExitUsage;
  auto stub = Service::NewStub(channel);
  auto call = ctx.NewCall();
  if (!call) return kExitUsage;
  const int64_t rows = static_cast<int64_t>(file.records.size());
  call->set_deadline(
      std::chrono::system_clock::now() +
      std::chrono::seconds(int64_t{ctx.timeout_seconds} * (1 + rows / 10000)));
  Response response;
  std::unique_ptr<grpc::ClientWriter<Request>> writer =
      open(*stub, call.get(), &response);
  ImportProgress progress("sending " + file.name, rows);
  size_t next = 0;
  bool first = true;
  while (first || next < file.records.size()) {
    Request request;
    if (first) options(&request);
    first = false;
    const size_t begin = next;
    const size_t end =
        std::min(file.records.size(), next + kImportRowsPerMessage);
    for (; next < end; ++next) fill(file.records[next], &request);
    if (!writer->Write(request))
      break;  // the server ended the call; Finish says why
    progress.Advance(static_cast<int64_t>(end - begin));
  }
  writer->WritesDone();
  progress.Finish(dry_run
                      ? "sent; the server is checking the file (dry run)"
                      : "sent; the server is checking and storing the file");
  grpc::Status s = writer->Finish();
  if (!s.ok()) return ctx.Fail(s);
  return ReportImport(what, file, response.summary(), ctx.json, dry_run,
                      refused_out);
}

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_IMPORT_FILE_H_
