// Reading back an .xlsx rankctl wrote, for the tests, with nothing but zlib:
// the zip's central directory, its stored and deflated entries, then just
// enough of the worksheet, shared-string and style XML to name each cell's
// value, type, boldness and number format. Not a general reader (no zip64,
// no encryption, no rich-text runs beyond concatenation).
#ifndef GORANK_TESTS_E2E_XLSX_READER_H_
#define GORANK_TESTS_E2E_XLSX_READER_H_

#include <map>
#include <string>

namespace gorank::e2e {

struct XlsxCell {
  std::string type;  // the t attribute: "s" (shared string), "" (number), ...
  std::string
      value;      // the text (shared strings resolved) or the number as written
  int style = 0;  // index into cellXfs
};

class Xlsx {
 public:
  // Reads the workbook at `path`: "" when it is a readable zip, else why not.
  std::string Open(const std::string& path);

  // Every entry of the zip, by name ("xl/worksheets/sheet1.xml").
  const std::map<std::string, std::string>& entries() const { return entries_; }
  // The cells of the n-th worksheet (1-based) by reference ("A1"); empty
  // when there is no such sheet.
  std::map<std::string, XlsxCell> Sheet(int n) const;
  // The sheet names in workbook order.
  std::string SheetNames() const;
  // Whether cells of `style` are bold; their number format code ("" for
  // general, e.g. "yyyy-mm-dd").
  bool Bold(int style) const;
  std::string NumberFormat(int style) const;

 private:
  std::map<std::string, std::string> entries_;
};

// Days since 1899-12-30, Excel's serial date of y-m-d (1900 date system).
long ExcelSerial(int year, int month, int day);

}  // namespace gorank::e2e

#endif  // GORANK_TESTS_E2E_XLSX_READER_H_
