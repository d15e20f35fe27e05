// rankctl cert statement|revocations|verify-offline: certificates anyone can
// check without the network (issue #21 item 5).
//
//   cert statement NUMBER        the signed statement (token: national
//                                admin, auditor, the issuing agency)
//   cert revocations [--out F]   the signed revocation list (public)
//   cert verify-offline --key FEDERATION.pub [--revocations FILE]
//       [--name NAME] (TEXT | --image QR.png)
//                                no network: checks a statement (or the
//                                verify URL that carries it, or a QR code
//                                in a PNG picture) against the federation key
//
// Exit statuses of verify-offline (a contract for scripts; also in --help
// and README): 0 valid; 2 usage (bad flags, a key, list or image file that
// cannot be read); 4 malformed (not a certificate statement, or no QR code
// in the picture); 5 tampered (the signature does not verify with the key
// the statement names); 6 wrong key (the statement names another key);
// 7 revoked (listed in the revocation list, with its date); 8 the
// revocation list is not signed by the key; 9 the --name is not the name
// the statement was made for.
#ifndef GORANK_SERVICES_CLI_CERTIFICATE_OFFLINE_H_
#define GORANK_SERVICES_CLI_CERTIFICATE_OFFLINE_H_

#include "CLI/CLI.hpp"
#include "services/cli/cli_context.h"
#include "services/cli/commands.h"
#include "services/cli/offline_check.h"

namespace gorank::cli {

static_assert(kExitOk == 0 && kExitUsage == 2,
              "verify-offline's exit statuses (offline_check.h) assume these");

// Registers statement, revocations and verify-offline under `cert`.
void AddCertOfflineCommands(CLI::App& cert, CliContext& ctx, Action& action);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_CERTIFICATE_OFFLINE_H_
