// What every rankctl command shares: the connection to rankd, the bearer
// token, the output mode, and uniform printing of answers and errors; where
// the connection settings come from (flags, environment, config file).
#ifndef GORANK_SERVICES_CLI_CLI_CONTEXT_H_
#define GORANK_SERVICES_CLI_CLI_CONTEXT_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/status.h"

namespace gorank::cli {

// Exit statuses of rankctl (a contract for scripts).
inline constexpr int kExitOk = 0;
inline constexpr int kExitCallFailed = 1;   // the server refused or failed
inline constexpr int kExitUsage = 2;        // bad flags or arguments
inline constexpr int kExitCheckFailed = 3;  // `check`: a record failed;
                                            // `cert verify`: NOT_VALID

// Which connection settings were given as flags (they win over the
// environment and the config file).
struct FlagsGiven {
  bool server = false;
  bool token_file = false;
  bool ca_file = false;
  bool cert_file = false;
  bool key_file = false;
  bool time_zone = false;
};

// The config file read when no --config is given:
// $XDG_CONFIG_HOME/rankctl/config.toml, else ~/.config/rankctl/config.toml
// ("" when neither variable is set).
std::string DefaultConfigPath();

class CliContext {
 public:
  std::string server = "127.0.0.1:50051";
  std::string token_file;
  bool json = false;
  int timeout_seconds = 30;
  // TLS: the CA that signed rankd's certificate (PEM). Empty: plaintext.
  std::string ca_file;
  // Mutual TLS: this client's certificate chain and key (PEM).
  std::string cert_file;
  std::string key_file;
  // The time zone times are printed in (IANA name; rankd's wall clock,
  // Asia/Shanghai, unless told otherwise).
  std::string time_zone = "Asia/Shanghai";

  // Fills the settings not given as flags, strongest first: the
  // environment (RANKCTL_SERVER, RANKCTL_TOKEN_FILE, RANKCTL_CA_FILE; empty
  // counts as unset), then the config file `config_flag` (--config; it must
  // exist) or else DefaultConfigPath() when that file exists. The file is
  // TOML with the keys server, token_file, ca_file, cert_file, key_file and
  // time_zone, all strings; a relative file name in it is relative to the
  // config file's folder. "" when all is well, else the usage error (a file
  // that cannot be read, a TOML error with its line, an unknown key, a value
  // that is not a string).
  std::string ApplySettings(const std::string& config_flag,
                            const FlagsGiven& given);

  // Makes `time_zone` the zone of TimeText. "" when it is usable, else the
  // usage error (an unknown zone is never silently UTC).
  std::string ApplyTimeZone() const;

  // The channel (created on first use); nullptr (message printed) when a
  // TLS file cannot be read.
  std::shared_ptr<grpc::Channel> Channel();
  // A client context with the deadline and, when a token file was given,
  // the authorization header. Fails (returns nullptr, message printed) when
  // the token file cannot be read.
  std::unique_ptr<grpc::ClientContext> NewCall();

  // Prints `msg` as JSON (--json) or with `human` (default), returns kExitOk.
  int Print(const google::protobuf::Message& msg,
            const std::function<void()>& human) const;
  // Prints "rankctl: CODE: message" on stderr; returns kExitCallFailed.
  int Fail(const grpc::Status& status) const;
  // Prints "rankctl: message" on stderr; returns kExitUsage.
  static int Usage(const std::string& message);

 private:
  std::shared_ptr<grpc::Channel> channel_;
};

// Prints an aligned text table (first row is the header).
void PrintTable(const std::vector<std::vector<std::string>>& rows);

// The name of a status code ("NOT_FOUND").
std::string CodeName(grpc::StatusCode code);

// "2024-06-08 12:00 Asia/Shanghai": a Unix time in the zone set by
// CliContext::ApplyTimeZone, with the zone shown; "-" for 0 (not set).
std::string TimeText(int64_t unix_seconds);

// An enum value in words: ("OBJECTION_STATE_UPHELD", "OBJECTION_STATE_")
// -> "upheld"; underscores become spaces.
std::string EnumWords(const std::string& value_name, const std::string& prefix);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_CLI_CONTEXT_H_
