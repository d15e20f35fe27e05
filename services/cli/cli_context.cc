#include "services/cli/cli_context.h"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "services/common/file_text.h"
#include "toml++/toml.h"

namespace gorank::cli {

namespace {

bool ReadPem(const std::string& what, const std::string& path,
             std::string* out) {
  absl::StatusOr<std::string> text = ReadTextFile(what, path);
  if (!text.ok()) {
    std::cerr << "rankctl: " << text.status().message() << "\n";
    return false;
  }
  *out = std::move(*text);
  return true;
}

// A file name from the config file at `config_path`: a relative one is
// taken from the config file's folder.
std::string FromConfigFolder(const std::string& config_path,
                             const std::string& name) {
  if (name.empty() || name[0] == '/') return name;
  const size_t slash = config_path.rfind('/');
  return slash == std::string::npos ? name
                                    : config_path.substr(0, slash + 1) + name;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

}  // namespace

std::string DefaultConfigPath() {
  if (const std::string xdg = Env("XDG_CONFIG_HOME"); !xdg.empty()) {
    return xdg + "/rankctl/config.toml";
  }
  const std::string home = Env("HOME");
  return home.empty() ? "" : home + "/.config/rankctl/config.toml";
}

std::string CliContext::ApplySettings(const std::string& config_flag,
                                      const FlagsGiven& given) {
  std::string path = config_flag;
  if (path.empty()) {
    path = DefaultConfigPath();
    if (path.empty() || !std::ifstream(path).good()) path.clear();
  }
  struct Setting {
    const char* key;
    std::string* value;
    bool given;
    const char* env;  // nullptr: no environment variable
    bool is_file;
  };
  const Setting settings[] = {
      {"server", &server, given.server, "RANKCTL_SERVER", false},
      {"token_file", &token_file, given.token_file, "RANKCTL_TOKEN_FILE", true},
      {"ca_file", &ca_file, given.ca_file, "RANKCTL_CA_FILE", true},
      {"cert_file", &cert_file, given.cert_file, nullptr, true},
      {"key_file", &key_file, given.key_file, nullptr, true},
      {"time_zone", &time_zone, given.time_zone, nullptr, false},
  };
  bool from_env[std::size(settings)] = {};
  for (size_t i = 0; i < std::size(settings); ++i) {
    const Setting& s = settings[i];
    if (s.given || s.env == nullptr) continue;
    if (const std::string v = Env(s.env); !v.empty()) {
      *s.value = v;
      from_env[i] = true;
    }
  }
  if (path.empty()) return "";
  absl::StatusOr<std::string> text = ReadTextFile("config file", path);
  if (!text.ok()) {
    return (config_flag.empty() ? "" : "--config: ") +
           std::string(text.status().message());
  }
  toml::table table;
  try {  // Debian's toml++ is built with exceptions: a syntax error throws.
    table = toml::parse(*text);
  } catch (const toml::parse_error& err) {
    std::ostringstream msg;
    msg << path << " line " << err.source().begin.line << ": "
        << err.description();
    return msg.str();
  }
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    size_t i = 0;
    while (i < std::size(settings) && k != settings[i].key) ++i;
    if (i == std::size(settings)) {
      return path + ": unknown key '" + k +
             "' (rankctl reads server, token_file, ca_file, cert_file, "
             "key_file, time_zone)";
    }
    if (!node.is_string()) return path + ": key '" + k + "' must be a string";
    const Setting& s = settings[i];
    if (s.given || from_env[i]) continue;
    const std::string v = *node.value<std::string>();
    *s.value = s.is_file ? FromConfigFolder(path, v) : v;
  }
  return "";
}

std::shared_ptr<grpc::Channel> CliContext::Channel() {
  if (channel_) return channel_;
  if (ca_file.empty()) {
    if (!cert_file.empty())
      std::cerr << "rankctl: --cert-file needs --ca-file (TLS)\n";
    channel_ = grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
    return channel_;
  }
  grpc::SslCredentialsOptions tls;
  if (!ReadPem("CA file", ca_file, &tls.pem_root_certs)) std::exit(kExitUsage);
  if (!cert_file.empty() || !key_file.empty()) {
    if (!ReadPem("client certificate", cert_file, &tls.pem_cert_chain) ||
        !ReadPem("client key", key_file, &tls.pem_private_key)) {
      std::exit(kExitUsage);
    }
  }
  channel_ = grpc::CreateChannel(server, grpc::SslCredentials(tls));
  return channel_;
}

std::unique_ptr<grpc::ClientContext> CliContext::NewCall() {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(timeout_seconds));
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    std::string token;
    if (!in || !std::getline(in, token)) {
      std::cerr << "rankctl: cannot read token file " << token_file << "\n";
      return nullptr;
    }
    while (!token.empty() && (token.back() == '\r' || token.back() == ' '))
      token.pop_back();
    ctx->AddMetadata("authorization", "Bearer " + token);
  }
  return ctx;
}

int CliContext::Print(const google::protobuf::Message& msg,
                      const std::function<void()>& human) const {
  if (json) {
    std::string out;
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = true;
    options.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(msg, &out, options);
    std::cout << out;
  } else {
    human();
  }
  return kExitOk;
}

namespace {
std::string& ZoneName() {
  static std::string zone = "Asia/Shanghai";
  return zone;
}
}  // namespace

std::string CliContext::ApplyTimeZone() const {
  const bool plain = !time_zone.empty() &&
                     time_zone.find("..") == std::string::npos &&
                     time_zone[0] != '/';
  if (!plain || (time_zone != "UTC" &&
                 !std::ifstream("/usr/share/zoneinfo/" + time_zone).good())) {
    return "--time-zone '" + time_zone +
           "': not a time zone of this system (an IANA name such as "
           "Asia/Shanghai or UTC)";
  }
  setenv("TZ", time_zone.c_str(), 1);
  tzset();
  ZoneName() = time_zone;
  return "";
}

std::string TimeText(int64_t unix_seconds) {
  if (unix_seconds == 0) return "-";
  const time_t t = static_cast<time_t>(unix_seconds);
  std::tm local{};
  localtime_r(&t, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &local);
  return std::string(buf) + " " + ZoneName();
}

std::string EnumWords(const std::string& value_name,
                      const std::string& prefix) {
  std::string name = value_name;
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  for (char& c : name) c = c == '_' ? ' ' : static_cast<char>(std::tolower(c));
  return name;
}

std::string CodeName(grpc::StatusCode code) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i <= 16 ? kNames[i] : "CODE_" + std::to_string(i);
}

int CliContext::Fail(const grpc::Status& status) const {
  std::string msg = status.error_message();
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE) {
    msg += " (is rankd running at " + server + "?)";
  }
  std::cerr << "rankctl: " << CodeName(status.error_code()) << ": " << msg
            << "\n";
  return kExitCallFailed;
}

int CliContext::Usage(const std::string& message) {
  std::cerr << "rankctl: " << message << "\n";
  return kExitUsage;
}

void PrintTable(const std::vector<std::vector<std::string>>& rows) {
  // Width in display columns: count UTF-8 lead bytes, CJK characters as two.
  auto width = [](const std::string& s) {
    size_t w = 0;
    for (size_t i = 0; i < s.size();) {
      const unsigned char c = s[i];
      const int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      w += len >= 3 ? 2 : 1;
      i += len;
    }
    return w;
  };
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size());
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(widths[i] - width(row[i]) + 2, ' ');
    }
    std::cout << line << "\n";
  }
}

}  // namespace gorank::cli
