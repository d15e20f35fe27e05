#include "tests/e2e/xlsx_reader.h"

#include <zlib.h>

#include <cstdint>
#include <vector>

#include "tests/testing/rankd_process.h"

namespace gorank::e2e {
namespace {

uint32_t Le(const std::string& b, size_t at, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

bool Inflate(const std::string& in, size_t size, std::string* out) {
  out->assign(size, '\0');
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return false;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(size);
  const int rc = inflate(&zs, Z_FINISH);
  inflateEnd(&zs);
  return rc == Z_STREAM_END && zs.total_out == size;
}

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const size_t semi = s.find(';', i);
    const std::string name = s.substr(i + 1, semi - i - 1);
    if (name == "amp")
      out += '&';
    else if (name == "lt")
      out += '<';
    else if (name == "gt")
      out += '>';
    else if (name == "quot")
      out += '"';
    else if (name == "apos")
      out += '\'';
    else
      out += "&" + name + ";";
    i = semi;
  }
  return out;
}

// The value of attribute `name` in the tag text `tag` ("" when absent).
std::string Attr(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size();
  return Unescape(tag.substr(begin, tag.find('"', begin) - begin));
}

// The text between <open ...> and </close> of every element named `name`
// inside `xml`, with its opening tag.
std::vector<std::pair<std::string, std::string>> Elements(
    const std::string& xml, const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string open = "<" + name;
  for (size_t at = xml.find(open); at != std::string::npos;
       at = xml.find(open, at + 1)) {
    const char next = xml[at + open.size()];
    if (next != ' ' && next != '>' && next != '/') continue;
    const size_t tag_end = xml.find('>', at);
    const std::string tag = xml.substr(at, tag_end - at + 1);
    if (tag.size() >= 2 && tag[tag.size() - 2] == '/') {
      out.emplace_back(tag, "");
      continue;
    }
    const size_t close = xml.find("</" + name + ">", tag_end);
    out.emplace_back(tag, xml.substr(tag_end + 1, close - tag_end - 1));
  }
  return out;
}

std::string Section(const std::string& xml, const std::string& name) {
  const size_t begin = xml.find("<" + name);
  if (begin == std::string::npos) return "";
  const size_t end = xml.find("</" + name + ">", begin);
  return xml.substr(begin,
                    end == std::string::npos ? std::string::npos : end - begin);
}

// All <t> texts of an element, concatenated (plain or rich-text runs).
std::string Texts(const std::string& xml) {
  std::string out;
  for (const auto& [tag, body] : Elements(xml, "t")) out += Unescape(body);
  return out;
}

}  // namespace

std::string Xlsx::Open(const std::string& path) {
  const std::string b = testing::ReadFile(path);
  if (b.size() < 22) return path + ": too short for a zip";
  size_t eocd = std::string::npos;
  for (size_t at = b.size() - 22;; --at) {
    if (Le(b, at, 4) == 0x06054b50) {
      eocd = at;
      break;
    }
    if (at == 0 || b.size() - at > 22 + 65535) break;
  }
  if (eocd == std::string::npos) return path + ": no end of central directory";
  const uint32_t count = Le(b, eocd + 10, 2);
  size_t at = Le(b, eocd + 16, 4);
  for (uint32_t i = 0; i < count; ++i) {
    if (at + 46 > b.size() || Le(b, at, 4) != 0x02014b50)
      return "bad central directory entry";
    const uint32_t method = Le(b, at + 10, 2);
    const uint32_t crc = Le(b, at + 16, 4);
    const uint32_t compressed = Le(b, at + 20, 4);
    const uint32_t size = Le(b, at + 24, 4);
    const uint32_t name_len = Le(b, at + 28, 2);
    const uint32_t extra_len = Le(b, at + 30, 2);
    const uint32_t comment_len = Le(b, at + 32, 2);
    const uint32_t local = Le(b, at + 42, 4);
    const std::string name = b.substr(at + 46, name_len);
    at += 46 + name_len + extra_len + comment_len;
    if (local + 30 > b.size() || Le(b, local, 4) != 0x04034b50)
      return name + ": bad local header";
    const size_t data =
        local + 30 + Le(b, local + 26, 2) + Le(b, local + 28, 2);
    if (data + compressed > b.size()) return name + ": truncated";
    const std::string raw = b.substr(data, compressed);
    std::string content;
    if (method == 0) {
      content = raw;
    } else if (method != 8 || !Inflate(raw, size, &content)) {
      return name + ": cannot inflate (method " + std::to_string(method) + ")";
    }
    if (crc32(0, reinterpret_cast<const Bytef*>(content.data()),
              static_cast<uInt>(content.size())) != crc) {
      return name + ": CRC mismatch";
    }
    entries_[name] = std::move(content);
  }
  if (!entries_.count("[Content_Types].xml"))
    return path + ": no [Content_Types].xml";
  return "";
}

std::map<std::string, XlsxCell> Xlsx::Sheet(int n) const {
  std::map<std::string, XlsxCell> cells;
  const auto it =
      entries_.find("xl/worksheets/sheet" + std::to_string(n) + ".xml");
  if (it == entries_.end()) return cells;
  std::vector<std::string> shared;
  if (const auto ss = entries_.find("xl/sharedStrings.xml");
      ss != entries_.end()) {
    for (const auto& [tag, body] : Elements(ss->second, "si"))
      shared.push_back(Texts(body));
  }
  for (const auto& [tag, body] : Elements(it->second, "c")) {
    XlsxCell cell;
    cell.type = Attr(tag, "t");
    const std::string s = Attr(tag, "s");
    cell.style = s.empty() ? 0 : std::stoi(s);
    const auto v = Elements(body, "v");
    if (cell.type == "inlineStr") {
      cell.value = Texts(body);
    } else if (!v.empty()) {
      cell.value = Unescape(v[0].second);
      if (cell.type == "s") {
        const size_t index = std::stoul(cell.value);
        cell.value = index < shared.size() ? shared[index] : "?";
      }
    }
    cells[Attr(tag, "r")] = cell;
  }
  return cells;
}

std::string Xlsx::SheetNames() const {
  std::string names;
  const auto it = entries_.find("xl/workbook.xml");
  if (it == entries_.end()) return names;
  for (const auto& [tag, body] : Elements(it->second, "sheet")) {
    names += (names.empty() ? "" : ",") + Attr(tag, "name");
  }
  return names;
}

bool Xlsx::Bold(int style) const {
  const auto it = entries_.find("xl/styles.xml");
  if (it == entries_.end()) return false;
  const auto xfs = Elements(Section(it->second, "cellXfs"), "xf");
  if (style < 0 || style >= static_cast<int>(xfs.size())) return false;
  const std::string font = Attr(xfs[style].first, "fontId");
  const auto fonts = Elements(Section(it->second, "fonts"), "font");
  const size_t f = font.empty() ? 0 : std::stoul(font);
  return f < fonts.size() && fonts[f].second.find("<b/>") != std::string::npos;
}

std::string Xlsx::NumberFormat(int style) const {
  const auto it = entries_.find("xl/styles.xml");
  if (it == entries_.end()) return "";
  const auto xfs = Elements(Section(it->second, "cellXfs"), "xf");
  if (style < 0 || style >= static_cast<int>(xfs.size())) return "";
  const std::string id = Attr(xfs[style].first, "numFmtId");
  for (const auto& [tag, body] :
       Elements(Section(it->second, "numFmts"), "numFmt")) {
    if (Attr(tag, "numFmtId") == id) {
      std::string code;
      for (char c : Attr(tag, "formatCode")) {
        if (c != '\\') code += c;  // "yyyy\-mm\-dd" is yyyy-mm-dd
      }
      return code;
    }
  }
  return "";
}

long ExcelSerial(int year, int month, int day) {
  // Days from civil (Howard Hinnant), relative to 1899-12-30.
  auto days = [](int y, int m, int d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  };
  return days(year, month, day) - days(1899, 12, 30);
}

}  // namespace gorank::e2e
