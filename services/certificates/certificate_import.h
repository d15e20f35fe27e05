// Value types of the historic-certificate import (ImportCertificates,
// `rankctl cert import`): the rows of a file as text, the options of the
// call, and the answer (refused rows with line, column and reason; added and
// matched rows with their holder and number). The rules live in
// Certification::ImportCertificates (certification_import.cc).
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_IMPORT_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_IMPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "services/registry/player.h"

namespace gorank::certificates {

// The most rows one import may carry (the stream is cut with
// RESOURCE_EXHAUSTED beyond).
inline constexpr int kMaxImportRows = 200000;

// One row as the file has it (every field text, trimmed by the server).
struct CertificateImportRow {
  int line = 0;
  std::string number;          // nine digits PPPYYSSSS
  std::string holder;          // player id, resident ID or external id
  std::string grade;           // any rank notation
  std::string issue_date;      // YYYY-MM-DD
  std::string issuing_agency;  // three-digit prefix
  std::string discipline;      // "" (go), go or gomoku
};

struct CertificateImportOptions {
  bool dry_run = false;   // check everything, store nothing
  bool skip_bad = false;  // store the good rows even when some are refused
  std::string file_name;
  std::string file_sha256;  // hex, as rankctl computed it ("" = unknown)
};

struct ImportRowRefusal {
  int line = 0;
  std::string column;  // "" for the row as a whole
  std::string reason;
};

struct ImportRowOutcome {
  int line = 0;
  registry::PlayerId player_id;
  std::string number;
  bool matched = false;  // already stored with the same content
  std::string note;      // a warning that did not stop the row
};

struct CertificateImportReport {
  int rows = 0;
  int added = 0;
  int matched = 0;
  int refused = 0;      // rows with at least one refusal
  bool stored = false;  // false for a dry run and when refusals stopped it
  std::vector<ImportRowRefusal> refusals;  // by line
  std::vector<ImportRowOutcome> outcomes;  // by line: added and matched rows
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_IMPORT_H_
