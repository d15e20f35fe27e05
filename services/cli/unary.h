// One unary call from rankctl: build the stub, make the call with the
// shared context (deadline, token), then print the answer or the error.
#ifndef GORANK_SERVICES_CLI_UNARY_H_
#define GORANK_SERVICES_CLI_UNARY_H_

#include <functional>

#include "services/cli/cli_context.h"

namespace gorank::cli {

// `call(stub, client_context, response)` returns the grpc::Status; `human`
// prints the answer as text (--json prints it as JSON instead).
template <typename Service, typename Resp, typename CallFn>
int Unary(CliContext& ctx, CallFn call,
          const std::function<void(const Resp&)>& human) {
  auto stub = Service::NewStub(ctx.Channel());
  auto call_ctx = ctx.NewCall();
  if (!call_ctx) return kExitUsage;
  Resp resp;
  grpc::Status s = call(*stub, call_ctx.get(), &resp);
  if (!s.ok()) return ctx.Fail(s);
  return ctx.Print(resp, [&] { human(resp); });
}

// As Unary, but `first(resp)` runs before the answer is printed, in every
// output mode (e.g. writing --out FILE); when it returns an exit status other
// than kExitOk, that is returned and nothing is printed.
template <typename Service, typename Resp, typename CallFn>
int UnaryFirst(CliContext& ctx, CallFn call,
               const std::function<int(const Resp&)>& first,
               const std::function<void(const Resp&)>& human) {
  auto stub = Service::NewStub(ctx.Channel());
  auto call_ctx = ctx.NewCall();
  if (!call_ctx) return kExitUsage;
  Resp resp;
  grpc::Status s = call(*stub, call_ctx.get(), &resp);
  if (!s.ok()) return ctx.Fail(s);
  if (const int rc = first(resp); rc != kExitOk) return rc;
  return ctx.Print(resp, [&] { human(resp); });
}

// A List RPC read to its end: calls `call(stub, client_context, request,
// response)` with `request` and then with each next_page_token, one call a
// page, and prints the rows of every page as one answer (next_page_token
// cleared), as the list was printed when it came in one page. The first
// failing call's error is the result; nothing is printed then.
template <typename Service, typename Req, typename Resp, typename CallFn>
int AllPages(CliContext& ctx, Req request, CallFn call,
             const std::function<void(const Resp&)>& human) {
  auto stub = Service::NewStub(ctx.Channel());
  Resp all;
  do {
    auto call_ctx = ctx.NewCall();
    if (!call_ctx) return kExitUsage;
    Resp page;
    grpc::Status s = call(*stub, call_ctx.get(), request, &page);
    if (!s.ok()) return ctx.Fail(s);
    request.set_page_token(page.next_page_token());
    all.MergeFrom(page);
  } while (!request.page_token().empty());
  all.clear_next_page_token();
  return ctx.Print(all, [&] { human(all); });
}

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_UNARY_H_
