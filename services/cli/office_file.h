// Tables rankctl writes for people to open in a spreadsheet: the holder
// list (`cert export`), the annual report (`audit report`) and standings
// (`event standings`). One Sheet is written either as CSV (UTF-8 with a BOM,
// so that Excel on Chinese Windows reads the Chinese names as UTF-8 rather
// than as GBK) or, with the others, as an .xlsx workbook (libxlsxwriter):
// the header row bold and frozen, numbers as numbers, dates as real dates
// shown YYYY-MM-DD, every other cell text (certificate numbers, agency
// prefixes and resident IDs keep their leading zeros and all 18 digits),
// column widths fitted to the text (CJK characters count double).
//
// Files other programs read back as data (EGF and the results CSV of
// `event export`, the import files) are not Sheets.
#ifndef GORANK_SERVICES_CLI_OFFICE_FILE_H_
#define GORANK_SERVICES_CLI_OFFICE_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gorank::cli {

// The three bytes a UTF-8 file for Excel starts with.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// One cell. `text` is what the CSV holds; an .xlsx holds `number` (with
// `number_format`, e.g. "# ?/?" for thirds, "" for Excel's general format)
// or the date, text cells as text.
struct Cell {
  enum class Kind { kText, kNumber, kDate };
  Kind kind = Kind::kText;
  std::string text;
  double number = 0;
  std::string number_format;
  int year = 0, month = 0, day = 0;

  static Cell Text(std::string text);
  static Cell Int(int64_t value);
  // `shown` is the CSV text ("14.5", "2 1/3").
  static Cell Number(double value, std::string shown,
                     std::string number_format = "");
  // An empty text cell when year is 0 (no date).
  static Cell Date(int year, int month, int day);
};

struct Sheet {
  // The worksheet's name: at most 31 characters, none of []:*?/\ .
  std::string name;
  std::vector<std::string> header;
  std::vector<std::vector<Cell>> rows;
};

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string CsvField(std::string_view text);

// The BOM, the header and every row, one line each ending in "\n". A text
// cell a spreadsheet would take for a formula (starting with =, +, @, a tab
// or a carriage return, or '-' when it is not a number) is written with a
// leading apostrophe, which Excel and LibreOffice show as plain text.
std::string CsvText(const Sheet& sheet);

// True when `path` ends in ".xlsx" (any case).
bool IsXlsxPath(const std::string& path);

// Writes every sheet into one workbook at `path` (replacing a file there).
// "" when written, else what went wrong (the file cannot be created, a
// string too long for a cell, ...).
std::string WriteXlsx(const std::string& path,
                      const std::vector<Sheet>& sheets);

// `--out FILE`: an .xlsx workbook of every sheet when IsXlsxPath(path), else
// sheets[0] as CSV (CsvText). "" or the error, as WriteXlsx.
// REQUIRES: !sheets.empty().
std::string WriteOfficeFile(const std::string& path,
                            const std::vector<Sheet>& sheets);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_OFFICE_FILE_H_
