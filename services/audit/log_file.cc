#include "services/audit/log_file.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

using nlohmann::json;

constexpr char kFormat[] = "gorank-audit-log";
constexpr int kVersion = 1;

absl::Status LineError(int64_t line_number, const std::string& what) {
  return absl::InvalidArgumentError("line " + std::to_string(line_number) +
                                    ": " + what);
}

absl::StatusOr<LogFileLine> ParseEntryLine(const json& object, int64_t line) {
  for (const auto& [key, value] : object.items()) {
    if (key != "entry" && key != "index" && key != "leaf_hash") {
      return LineError(line, "entry line has unknown field '" + key + "'");
    }
  }
  auto index = object.find("index");
  // nlohmann::json parses every non-negative integer as unsigned.
  if (index == object.end() || !index->is_number_unsigned() ||
      index->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return LineError(line, "entry line needs a non-negative integer 'index'");
  }
  if (!object.at("entry").is_string()) {
    return LineError(line, "'entry' is not a base64 string");
  }
  LogFileLine out;
  out.index = index->get<int64_t>();
  absl::StatusOr<std::string> bytes =
      Base64Decode(object.at("entry").get<std::string>());
  if (!bytes.ok()) {
    return LineError(line, "entry " + std::to_string(*out.index) + ": " +
                               std::string(bytes.status().message()));
  }
  ExportedEntry entry{*bytes, ""};
  if (auto hash = object.find("leaf_hash"); hash != object.end()) {
    absl::StatusOr<std::string> raw =
        hash->is_string() ? HexDecode(hash->get<std::string>())
                          : absl::StatusOr<std::string>(std::string());
    if (!raw.ok() || raw->size() != kHashSize) {
      return LineError(line, "entry " + std::to_string(*out.index) +
                                 ": 'leaf_hash' is not 64 hex digits");
    }
    entry.leaf_hash = *raw;
  }
  out.entry = std::move(entry);
  return out;
}

absl::StatusOr<LogFileLine> ParseHeaderLine(const json& object, int64_t line) {
  if (object.size() != 2 || object.at("format") != kFormat ||
      object.value("version", json()) != kVersion) {
    return LineError(line, std::string("header must be {\"format\":\"") +
                               kFormat + "\",\"version\":1}");
  }
  return LogFileLine{};
}

}  // namespace

absl::StatusOr<LogFileLine> ParseLogFileLine(const std::string& line,
                                             int64_t line_number) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) {
    return LogFileLine{};
  }
  json object = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    return LineError(line_number, "not a JSON object");
  }
  if (object.contains("format")) return ParseHeaderLine(object, line_number);
  if (object.contains("entry")) return ParseEntryLine(object, line_number);
  if (object.contains("checkpoint") && object.size() == 1) {
    absl::StatusOr<Checkpoint> checkpoint =
        Checkpoint::FromJson(object.at("checkpoint").dump());
    if (!checkpoint.ok()) {
      return LineError(line_number, std::string(checkpoint.status().message()));
    }
    LogFileLine out;
    out.checkpoint = *std::move(checkpoint);
    return out;
  }
  return LineError(line_number,
                   "neither a header, an entry nor a checkpoint line");
}

absl::StatusOr<ExportedLog> ReadLogFile(std::istream& in) {
  ExportedLog log;
  std::string text;
  int64_t line_number = 0;
  bool seen_header = false;
  while (std::getline(in, text)) {
    ++line_number;
    absl::StatusOr<LogFileLine> line = ParseLogFileLine(text, line_number);
    if (!line.ok()) return line.status();
    bool blank = !line->entry && !line->checkpoint &&
                 text.find_first_not_of(" \t\r") == std::string::npos;
    if (!seen_header) {
      if (blank) continue;
      if (line->entry || line->checkpoint) {
        return LineError(line_number,
                         "the file does not start with the "
                         "gorank-audit-log header line");
      }
      seen_header = true;
      continue;
    }
    if (line->checkpoint)
      log.checkpoints.push_back(*std::move(line->checkpoint));
    if (!line->entry) continue;
    int64_t expected = static_cast<int64_t>(log.entries.size());
    if (*line->index != expected) {
      return LineError(
          line_number,
          "entry index " + std::to_string(*line->index) + " where " +
              std::to_string(expected) + " was expected" +
              (*line->index > expected
                   ? " (entries " + std::to_string(expected) + ".." +
                         std::to_string(*line->index - 1) + " are missing)"
                   : " (entry repeated or out of order)"));
    }
    log.entries.push_back(*std::move(line->entry));
  }
  if (!seen_header) {
    return absl::InvalidArgumentError("empty file: no gorank-audit-log header");
  }
  return log;
}

absl::StatusOr<ExportedLog> ReadLogFileAt(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(path + ": cannot be opened");
  absl::StatusOr<ExportedLog> log = ReadLogFile(in);
  if (!log.ok()) {
    return absl::InvalidArgumentError(path + ": " +
                                      std::string(log.status().message()));
  }
  return log;
}

LogFileWriter::LogFileWriter(std::ostream* out) : out_(out) {
  *out_ << json{{"format", kFormat}, {"version", kVersion}}.dump() << "\n";
}

absl::Status LogFileWriter::AddEntry(const std::string& bytes,
                                     const std::string& leaf_hash) {
  if (!leaf_hash.empty() && leaf_hash.size() != kHashSize) {
    return absl::InvalidArgumentError(
        "leaf hash of entry " + std::to_string(next_index_) + " has " +
        std::to_string(leaf_hash.size()) + " bytes, expected 32");
  }
  json object = {{"entry", Base64Encode(bytes)}, {"index", next_index_}};
  if (!leaf_hash.empty()) object["leaf_hash"] = HexEncode(leaf_hash);
  *out_ << object.dump() << "\n";
  ++next_index_;
  if (!*out_) return absl::InternalError("writing the audit log file failed");
  return absl::OkStatus();
}

absl::Status LogFileWriter::AddCheckpoint(const Checkpoint& checkpoint) {
  *out_ << "{\"checkpoint\":" << checkpoint.ToJson() << "}\n";
  if (!*out_) return absl::InternalError("writing the audit log file failed");
  return absl::OkStatus();
}

absl::Status LogFileWriter::Finish() {
  out_->flush();
  if (!*out_) return absl::InternalError("writing the audit log file failed");
  return absl::OkStatus();
}

absl::Status WriteLogFile(const ExportedLog& log, std::ostream& out) {
  std::vector<Checkpoint> checkpoints = log.checkpoints;
  std::stable_sort(checkpoints.begin(), checkpoints.end(),
                   [](const Checkpoint& a, const Checkpoint& b) {
                     return a.tree_size < b.tree_size;
                   });
  LogFileWriter writer(&out);
  auto next = checkpoints.begin();
  auto flush_upto = [&](int64_t size) -> absl::Status {
    for (; next != checkpoints.end() && next->tree_size <= size; ++next) {
      absl::Status status = writer.AddCheckpoint(*next);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  };
  absl::Status status = flush_upto(0);
  for (size_t i = 0; status.ok() && i < log.entries.size(); ++i) {
    status = writer.AddEntry(log.entries[i].bytes, log.entries[i].leaf_hash);
    if (status.ok()) status = flush_upto(static_cast<int64_t>(i) + 1);
  }
  if (status.ok()) status = flush_upto(INT64_MAX);
  if (!status.ok()) return status;
  return writer.Finish();
}

}  // namespace gorank::audit
