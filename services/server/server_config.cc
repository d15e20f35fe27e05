#include "services/server/server_config.h"

#include <sstream>

#include "absl/status/status.h"
#include "services/common/file_text.h"
#include "storage/database.h"
#include "toml++/toml.h"

namespace gorank::server {
namespace {

absl::Status ApplyTable(const toml::table& t, ServerConfig* c) {
  for (const auto& [key, node_binding] : t) {
    const toml::node& node =
        node_binding;  // clang 14: lambdas cannot capture bindings
    const std::string k(key.str());
    auto want_string = [&](std::string* out) -> absl::Status {
      if (!node.is_string()) {
        return absl::InvalidArgumentError("config key '" + k +
                                          "' must be a string");
      }
      *out = *node.value<std::string>();
      return absl::OkStatus();
    };
    auto want_int = [&](int* out, int64_t lo, int64_t hi) -> absl::Status {
      // Only an integer node: value<int64_t>() of a float out of range is UB.
      auto v = node.is_integer() ? node.value<int64_t>() : std::nullopt;
      if (!v || *v < lo || *v > hi) {
        return absl::InvalidArgumentError(
            "config key '" + k + "' must be an integer in " +
            std::to_string(lo) + ".." + std::to_string(hi));
      }
      *out = static_cast<int>(*v);
      return absl::OkStatus();
    };
    auto want_double = [&](double* out) -> absl::Status {
      auto v = node.value<double>();
      if (!(node.is_integer() || node.is_floating_point()) || !v || *v < 0) {
        return absl::InvalidArgumentError("config key '" + k +
                                          "' must be a number >= 0");
      }
      *out = *v;
      return absl::OkStatus();
    };
    absl::Status s;
    if (k == "db")
      s = want_string(&c->db_path);
    else if (k == "db_read_replica") {
      s = want_string(&c->db_read_replica);
      if (s.ok() && !c->db_read_replica.empty() &&
          !storage::IsPostgresUrl(c->db_read_replica)) {
        s = absl::InvalidArgumentError(
            "config key 'db_read_replica' must be a PostgreSQL URL "
            "(postgresql://USER@HOST:PORT/DBNAME) or empty");
      }
    } else if (k == "listen")
      s = want_string(&c->listen);
    else if (k == "http_listen")
      s = want_string(&c->http_listen);
    else if (k == "public_base_url")
      s = want_string(&c->public_base_url);
    else if (k == "http_rate")
      s = want_double(&c->http_rate);
    else if (k == "http_burst")
      s = want_double(&c->http_burst);
    else if (k == "http_max_body_bytes")
      s = want_int(&c->http_max_body_bytes, 1024, 1 << 20);
    else if (k == "http_timeout_ms")
      s = want_int(&c->http_timeout_ms, 100, 600000);
    else if (k == "http_call_deadline_ms")
      s = want_int(&c->http_call_deadline_ms, 10, 600000);
    else if (k == "http_max_notices")
      s = want_int(&c->http_max_notices, 1, 10000);
    else if (k == "web_title_zh")
      s = want_string(&c->web_title_zh);
    else if (k == "web_title_en")
      s = want_string(&c->web_title_en);
    else if (k == "web_footer_zh")
      s = want_string(&c->web_footer_zh);
    else if (k == "web_footer_en")
      s = want_string(&c->web_footer_en);
    else if (k == "web_logo_file")
      s = want_string(&c->web_logo_file);
    else if (k == "admin_token_file")
      s = want_string(&c->admin_token_file);
    else if (k == "log_level")
      s = want_string(&c->log_level);
    else if (k == "reader_connections")
      s = want_int(&c->reader_connections, 1, 64);
    else if (k == "shutdown_grace_ms")
      s = want_int(&c->shutdown_grace_ms, 0, 600000);
    else if (k == "audit_key_file")
      s = want_string(&c->audit_key_file);
    else if (k == "tls_cert_file")
      s = want_string(&c->tls_cert_file);
    else if (k == "tls_key_file")
      s = want_string(&c->tls_key_file);
    else if (k == "tls_client_ca_file")
      s = want_string(&c->tls_client_ca_file);
    else if (k == "public_rate")
      s = want_double(&c->public_rate);
    else if (k == "public_burst")
      s = want_double(&c->public_burst);
    else if (k == "token_rate")
      s = want_double(&c->token_rate);
    else if (k == "token_burst")
      s = want_double(&c->token_burst);
    else if (k == "require_review_for_release") {
      if (!node.is_boolean()) {
        return absl::InvalidArgumentError("config key '" + k +
                                          "' must be true or false");
      }
      c->require_review_for_release = *node.value<bool>();
    } else if (k == "notice_days")
      s = want_int(&c->notice_days, 0, 365);
    else if (k == "public_index") {
      s = want_string(&c->public_index);
      if (s.ok() && c->public_index != "auto" && c->public_index != "on" &&
          c->public_index != "off") {
        s = absl::InvalidArgumentError(
            "config key 'public_index' must be \"auto\", \"on\" or \"off\"");
      }
    } else if (k == "public_index_poll_ms")
      s = want_int(&c->public_index_poll_ms, 10, 10000);
    else if (k == "ratings_config_file")
      s = want_string(&c->ratings_config_file);
    else if (k == "max_request_bytes")
      s = want_int(&c->max_request_bytes, 1024, 64 << 20);
    else if (k == "health_probe_ms")
      s = want_int(&c->health_probe_ms, 0, 3600000);
    else if (k == "metrics_listen")
      s = want_string(&c->metrics_listen);
    else
      return absl::InvalidArgumentError("unknown config key '" + k + "'");
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

std::string ServerConfig::StateDirectory() const {
  if (storage::IsPostgresUrl(db_path)) return ".";
  const size_t slash = db_path.rfind('/');
  return slash == std::string::npos ? "." : db_path.substr(0, slash);
}

namespace {
std::string InStateDirectory(const ServerConfig& c, const std::string& name) {
  const std::string dir = c.StateDirectory();
  return dir == "." ? name : dir + "/" + name;
}
}  // namespace

std::string ServerConfig::AdminTokenFile() const {
  return admin_token_file.empty() ? InStateDirectory(*this, "admin.token")
                                  : admin_token_file;
}

std::string ServerConfig::AuditKeyFile() const {
  return audit_key_file.empty() ? InStateDirectory(*this, "audit_ed25519.pem")
                                : audit_key_file;
}

absl::Status ParseConfigText(const std::string& text, ServerConfig* config) {
  // Debian's toml++ is built with exceptions: a syntax error throws.
  try {
    toml::table table = toml::parse(text);
    return ApplyTable(table, config);
  } catch (const toml::parse_error& err) {
    std::ostringstream msg;
    msg << "config line " << err.source().begin.line << ": "
        << err.description();
    return absl::InvalidArgumentError(msg.str());
  }
}

absl::Status LoadConfigFile(const std::string& path, ServerConfig* config) {
  absl::StatusOr<std::string> text = ReadTextFile("config file", path);
  if (!text.ok()) return text.status();
  absl::Status s = ParseConfigText(*text, config);
  if (!s.ok())
    return absl::Status(s.code(), path + ": " + std::string(s.message()));
  return s;
}

}  // namespace gorank::server
