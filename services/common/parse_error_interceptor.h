// Requests gRPC could not parse. Protobuf 3.21 refuses a proto3 string field
// holding invalid UTF-8 while gRPC deserializes the request, before any
// handler (and so before the call gate) runs; gRPC then answers INTERNAL with
// an empty message. This server interceptor turns that into INVALID_ARGUMENT
// naming the field: protobuf logs "String field 'gorank.v1.X.y' contains
// invalid UTF-8 data when parsing ..." through its log handler on the thread
// that deserializes, and gRPC runs the POST_RECV_MESSAGE interceptors on that
// same thread right after (sync server: the request's thread for unary calls,
// the reading thread's Read() for streams), so the handler keeps the field
// name thread-locally and the interceptor takes it there.
//
// For a stream, a message that cannot be parsed makes Read() return false as
// if the client had finished; the interceptor then replaces the handler's
// status (even OK) with INVALID_ARGUMENT, so the client learns that its
// stream was cut short.
#ifndef GORANK_SERVICES_COMMON_PARSE_ERROR_INTERCEPTOR_H_
#define GORANK_SERVICES_COMMON_PARSE_ERROR_INTERCEPTOR_H_

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace gorank {

// Makes protobuf log through spdlog (its own messages at their level; the
// invalid-UTF-8 parse errors of requests at info, they are the client's
// mistake) and remember the field of such a parse error for the interceptor.
// Idempotent and thread-safe; call before the server starts.
void InstallProtobufLogHandler();

// The interceptor factory for ServerBuilder::experimental()
// .SetInterceptorCreators. Also installs the log handler.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewParseErrorInterceptorFactory();

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_PARSE_ERROR_INTERCEPTOR_H_
