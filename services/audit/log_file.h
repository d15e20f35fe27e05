// The exported audit-log file: what `rankctl audit export` writes and what an
// auditor verifies offline with no server (log_verifier.h). JSON lines, UTF-8,
// one object a line, "\n" after every line:
//
//   {"format":"gorank-audit-log","version":1}                  first line
//   {"entry":"<base64 bytes>","index":0,"leaf_hash":"<64 hex>"}  entries in
//   {"entry":"<base64 bytes>","index":1,"leaf_hash":"<64 hex>"}  order 0,1,..
//   {"checkpoint":{<Checkpoint JSON, checkpoint.h>}}             any number
//
// "entry" holds the exact bytes the log hashed (AuditEntry::Encode output).
// "leaf_hash" is the hash the server recorded for the entry (its leaf-hash
// column); it is optional, and a verifier recomputes it anyway: a mismatch
// pins a tampered entry to its exact index. Checkpoint lines may appear
// anywhere; by convention each follows the entry that completes it. Blank
// lines are ignored. Keys inside a line may come in any order.
#ifndef GORANK_SERVICES_AUDIT_LOG_FILE_H_
#define GORANK_SERVICES_AUDIT_LOG_FILE_H_

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/audit/checkpoint.h"

namespace gorank::audit {

struct ExportedEntry {
  std::string bytes;      // the entry's bytes as hashed
  std::string leaf_hash;  // 32 raw bytes as recorded, or "" when absent

  bool operator==(const ExportedEntry&) const = default;
};

struct ExportedLog {
  std::vector<ExportedEntry> entries;   // entries[i] is the entry of index i
  std::vector<Checkpoint> checkpoints;  // in file order

  bool operator==(const ExportedLog&) const = default;
};

// One parsed line of the file. Exactly one of entry / checkpoint is set
// unless the line is the header or blank (then neither).
struct LogFileLine {
  std::optional<int64_t> index;  // set with entry
  std::optional<ExportedEntry> entry;
  std::optional<Checkpoint> checkpoint;
};

// Parses one line (without its "\n"). `line_number` (1-based) only labels
// messages. INVALID_ARGUMENT naming the line and the defect: not JSON,
// unknown kind of line, a header with another format or version, a negative
// or non-integer index, bad base64 or hex, a leaf hash not 32 bytes, or a
// malformed checkpoint. Thread-safe.
absl::StatusOr<LogFileLine> ParseLogFileLine(const std::string& line,
                                             int64_t line_number);

// Reads a whole file into memory. INVALID_ARGUMENT as ParseLogFileLine, when
// the header line is missing, or when an entry's index is not the next one
// (the message says which indices are missing, repeated or out of order).
absl::StatusOr<ExportedLog> ReadLogFile(std::istream& in);
// Same from a path; NOT_FOUND when the file cannot be opened.
absl::StatusOr<ExportedLog> ReadLogFileAt(const std::string& path);

// Writes the file incrementally (the exporter streams entries from storage).
// Thread-compatible. The stream must outlive the writer.
class LogFileWriter {
 public:
  // Writes the header line.
  explicit LogFileWriter(std::ostream* out);

  // Writes the next entry (index = number of entries written so far).
  // `leaf_hash` is "" (omitted) or 32 raw bytes. INVALID_ARGUMENT for a
  // leaf hash of another length; INTERNAL when the stream has failed.
  absl::Status AddEntry(const std::string& bytes,
                        const std::string& leaf_hash = "");
  // INTERNAL when the stream has failed.
  absl::Status AddCheckpoint(const Checkpoint& checkpoint);
  // Flushes; INTERNAL when any write failed.
  absl::Status Finish();

  int64_t entries_written() const { return next_index_; }

 private:
  std::ostream* out_;
  int64_t next_index_ = 0;
};

// Writes `log` with every checkpoint placed right after the entry that
// completes it (checkpoints of size 0 first). Errors as LogFileWriter.
absl::Status WriteLogFile(const ExportedLog& log, std::ostream& out);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_LOG_FILE_H_
