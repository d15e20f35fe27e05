#include "services/cli/office_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "xlsxwriter.h"

namespace gorank::cli {

Cell Cell::Text(std::string text) {
  Cell c;
  c.text = std::move(text);
  return c;
}

Cell Cell::Int(int64_t value) {
  return Number(static_cast<double>(value), std::to_string(value));
}

Cell Cell::Number(double value, std::string shown, std::string number_format) {
  Cell c;
  c.kind = Kind::kNumber;
  c.number = value;
  c.text = std::move(shown);
  c.number_format = std::move(number_format);
  return c;
}

Cell Cell::Date(int year, int month, int day) {
  if (year == 0) return Text("");
  Cell c;
  c.kind = Kind::kDate;
  c.year = year;
  c.month = month;
  c.day = day;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  c.text = buf;
  return c;
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

bool IsNumber(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// A spreadsheet opening the CSV would evaluate these as formulas.
bool LooksLikeFormula(const std::string& s) {
  if (s.empty()) return false;
  switch (s[0]) {
    case '=':
    case '+':
    case '@':
    case '\t':
    case '\r':
      return true;
    case '-':
      return s.size() > 1 && !IsNumber(s);
    default:
      return false;
  }
}

// Display columns of UTF-8 text: East Asian characters count two.
size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = len == 1   ? c
                  : len == 2 ? c & 0x1F
                  : len == 3 ? c & 0x0F
                             : c & 0x07;
    for (size_t k = 1; k < len && i + k < s.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    width += cp >= 0x1100 ? 2 : 1;
    i += len;
  }
  return width;
}

// A valid worksheet name (libxlsxwriter refuses others).
std::string SheetName(const std::string& name, size_t index) {
  std::string out;
  for (char c : name) {
    if (std::string_view("[]:*?/\\").find(c) == std::string_view::npos)
      out += c;
  }
  if (out.size() > 31) out.resize(31);
  return out.empty() ? "Sheet" + std::to_string(index + 1) : out;
}

class Workbook {
 public:
  explicit Workbook(const std::string& path)
      : path_(path), wb_(workbook_new(path.c_str())) {
    if (wb_ == nullptr) return;
    bold_ = workbook_add_format(wb_);
    format_set_bold(bold_);
    date_ = workbook_add_format(wb_);
    format_set_num_format(date_, "yyyy-mm-dd");
  }

  // "" or the error; the file is removed after an error.
  std::string Finish() {
    if (wb_ == nullptr) return "cannot create " + path_;
    const lxw_error closed = workbook_close(wb_);
    if (error_.empty() && closed != LXW_NO_ERROR) {
      error_ = "cannot write " + path_ + ": " + lxw_strerror(closed);
    }
    if (!error_.empty()) std::remove(path_.c_str());
    return error_;
  }

  void Add(const Sheet& sheet, size_t index) {
    if (wb_ == nullptr || !error_.empty()) return;
    lxw_worksheet* ws =
        workbook_add_worksheet(wb_, SheetName(sheet.name, index).c_str());
    if (ws == nullptr) {
      error_ = "cannot add the worksheet '" + sheet.name + "'";
      return;
    }
    std::vector<size_t> widths(sheet.header.size(), 0);
    for (size_t c = 0; c < sheet.header.size(); ++c) {
      Check(worksheet_write_string(ws, 0, static_cast<lxw_col_t>(c),
                                   sheet.header[c].c_str(), bold_));
      widths[c] = DisplayWidth(sheet.header[c]);
    }
    for (size_t r = 0; r < sheet.rows.size(); ++r) {
      const auto& row = sheet.rows[r];
      if (row.size() > widths.size()) widths.resize(row.size(), 0);
      for (size_t c = 0; c < row.size(); ++c) {
        WriteCell(ws, static_cast<lxw_row_t>(r + 1), static_cast<lxw_col_t>(c),
                  row[c]);
        widths[c] = std::max(widths[c], DisplayWidth(row[c].text));
      }
    }
    for (size_t c = 0; c < widths.size(); ++c) {
      const double width =
          static_cast<double>(std::clamp<size_t>(widths[c] + 2, 8, 60));
      Check(worksheet_set_column(ws, static_cast<lxw_col_t>(c),
                                 static_cast<lxw_col_t>(c), width, nullptr));
    }
    worksheet_freeze_panes(ws, 1, 0);
    if (!widths.empty()) {
      Check(worksheet_autofilter(ws, 0, 0,
                                 static_cast<lxw_row_t>(sheet.rows.size()),
                                 static_cast<lxw_col_t>(widths.size() - 1)));
    }
  }

 private:
  void WriteCell(lxw_worksheet* ws, lxw_row_t r, lxw_col_t c,
                 const Cell& cell) {
    switch (cell.kind) {
      case Cell::Kind::kNumber:
        Check(worksheet_write_number(ws, r, c, cell.number,
                                     NumberFormat(cell.number_format)));
        return;
      case Cell::Kind::kDate: {
        lxw_datetime dt = {cell.year, cell.month, cell.day, 0, 0, 0};
        Check(worksheet_write_datetime(ws, r, c, &dt, date_));
        return;
      }
      case Cell::Kind::kText:
        if (!cell.text.empty())
          Check(worksheet_write_string(ws, r, c, cell.text.c_str(), nullptr));
        return;
    }
  }

  lxw_format* NumberFormat(const std::string& code) {
    if (code.empty()) return nullptr;
    for (const auto& [c, f] : number_formats_) {
      if (c == code) return f;
    }
    lxw_format* f = workbook_add_format(wb_);
    format_set_num_format(f, code.c_str());
    number_formats_.emplace_back(code, f);
    return f;
  }

  void Check(lxw_error e) {
    if (e != LXW_NO_ERROR && error_.empty())
      error_ = path_ + ": " + lxw_strerror(e);
  }

  std::string path_;
  lxw_workbook* wb_;
  lxw_format* bold_ = nullptr;
  lxw_format* date_ = nullptr;
  std::vector<std::pair<std::string, lxw_format*>> number_formats_;
  std::string error_;
};

}  // namespace

std::string CsvText(const Sheet& sheet) {
  std::string out(kUtf8Bom);
  for (size_t c = 0; c < sheet.header.size(); ++c) {
    out += (c > 0 ? "," : "") + CsvField(sheet.header[c]);
  }
  out += "\n";
  for (const auto& row : sheet.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += ",";
      const Cell& cell = row[c];
      out += cell.kind == Cell::Kind::kText && LooksLikeFormula(cell.text)
                 ? CsvField("'" + cell.text)
                 : CsvField(cell.text);
    }
    out += "\n";
  }
  return out;
}

bool IsXlsxPath(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  return ext == ".xlsx";
}

std::string WriteXlsx(const std::string& path,
                      const std::vector<Sheet>& sheets) {
  // libxlsxwriter would say so on stderr itself, after the work.
  if (!std::ofstream(path, std::ios::binary | std::ios::app)) {
    return "cannot create " + path + ": " + std::strerror(errno);
  }
  Workbook wb(path);
  for (size_t i = 0; i < sheets.size(); ++i) wb.Add(sheets[i], i);
  return wb.Finish();
}

std::string WriteOfficeFile(const std::string& path,
                            const std::vector<Sheet>& sheets) {
  if (IsXlsxPath(path)) return WriteXlsx(path, sheets);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot create " + path;
  out << CsvText(sheets.front());
  out.close();
  if (!out) {
    std::remove(path.c_str());
    return "cannot write " + path;
  }
  return "";
}

}  // namespace gorank::cli
