// The read RPCs that a read replica (config db_read_replica) serves when the
// public calls them: the call gate runs them in a ReplicaReadScope
// (services/common/replica_reads.h). What they answer may be as old as the
// replica's replay lag; that is the price of the capacity, and only the
// public pays it: a caller with a token (an operator who registers a player
// and reads it back) reads the primary, as does every write and every read
// inside one.
//
// Not listed, so on the primary: LodgeObjection (a write, judged on what the
// primary holds); the audit log's checkpoint and proofs (a proof must be
// computed on the very log its checkpoint covers); the RPCs that read no
// database (WhoAmI, ParseRank, the rules checks, GetGradeStandard,
// ListPromotionRules).
#ifndef GORANK_SERVICES_SERVER_REPLICA_READ_METHODS_H_
#define GORANK_SERVICES_SERVER_REPLICA_READ_METHODS_H_

#include <string>
#include <vector>

namespace gorank::server {

// Full gRPC method names ("/gorank.v1.CertificateService/VerifyCertificate").
// Thread-safe (immutable).
const std::vector<std::string>& ReplicaReadMethods();

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_REPLICA_READ_METHODS_H_
