// GORANK_RPC(Name): the declaration of a unary RPC's handler in a subclass of
// a generated gRPC Service, the one shape every handler class shares:
//   grpc::Status Name(grpc::ServerContext* ctx, const v1::NameRequest* req,
//                     v1::NameResponse* resp) override
// Used inside namespace gorank (where `v1` is gorank::v1). The
// definitions in the .cc files are written out in full.
#ifndef GORANK_SERVICES_COMMON_RPC_METHOD_H_
#define GORANK_SERVICES_COMMON_RPC_METHOD_H_

#define GORANK_RPC(name)                                                    \
  grpc::Status name(grpc::ServerContext* ctx, const v1::name##Request* req, \
                    v1::name##Response* resp) override

#endif  // GORANK_SERVICES_COMMON_RPC_METHOD_H_
