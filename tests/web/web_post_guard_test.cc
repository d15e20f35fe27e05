// The public web page's POSTs against a real in-process rankd: the body limit
// holds however the body is framed (chunked, compressed), and cross-site
// posts are refused (a form posted from another site, a text/plain "simple"
// JSON post, a form without the token its page was shown with), all with
// nothing stored; the page's own form and same-origin JSON still work.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "tests/testing/database_snapshot.h"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

struct RawAnswer {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
};

// POSTs `chunks` with Transfer-Encoding: chunked over a plain socket (no
// final chunk: the body stays open) and reads the one answer (Content-Length
// framed) that comes back before the socket is closed.
RawAnswer RawPost(int port, const std::string& path,
                  const std::string& content_type,
                  const std::vector<std::string>& chunks) {
  RawAnswer answer;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{30,
                  0};  // a bound on a hung server, never reached when it works
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return answer;
  }
  std::string request =
      "POST " + path +
      " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + content_type +
      "\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (const std::string& c : chunks) {
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", c.size());
    request += size + c + "\r\n";
  }
  for (size_t sent = 0; sent < request.size();) {
    const ssize_t n =
        send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may stop reading once it has refused
    sent += static_cast<size_t>(n);
  }
  std::string in;
  char buf[4096];
  size_t length = std::string::npos;
  size_t body_at = std::string::npos;
  while (body_at == std::string::npos || in.size() < body_at + length) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
    if (body_at == std::string::npos &&
        (body_at = in.find("\r\n\r\n")) != std::string::npos) {
      answer.head = in.substr(0, body_at);
      body_at += 4;
      const size_t cl = answer.head.find("Content-Length: ");
      length = cl == std::string::npos
                   ? 0
                   : std::strtoul(answer.head.c_str() + cl + 16, nullptr, 10);
    }
  }
  close(fd);
  if (body_at == std::string::npos) return answer;
  answer.status = std::atoi(answer.head.c_str() + answer.head.find(' ') + 1);
  answer.body = in.substr(body_at, length);
  return answer;
}

class WebPostGuardTest : public WebFixture {
 protected:
  void SetUp() override {
    public_base_url_ = "https://rank.example.org";
    ASSERT_NO_FATAL_FAILURE(StartServer());
    four_ = MustIssue(MustRegister("李四", "3d", "").id(), "4d");
    ASSERT_EQ(four_.state(), v1::CERTIFICATE_STATE_UNDER_NOTICE);
  }

  // The notices page as `client_ip` sees it; its form token.
  std::string TokenFor(const std::string& client_ip = "127.0.0.1") {
    auto page = WebClient(client_ip)->Get("/notices");
    EXPECT_TRUE(page);
    if (!page) return "";
    EXPECT_EQ(page->status, 200);
    const std::string token = FormToken(page->body);
    EXPECT_FALSE(token.empty()) << page->body;
    return token;
  }

  httplib::Params Form(const std::string& token) {
    httplib::Params form{
        {"number", four_.number()},
        {"text", "他在比赛中使用了软件 " + std::to_string(++posts_)},
        {"contact", "13800000000"},
        {"lang", "en"}};
    if (!token.empty()) form.emplace("form_token", token);
    return form;
  }

  std::string Json() const {
    return nlohmann::json{{"number", four_.number()},
                          {"text", "second objection"},
                          {"contact", "x@example.org"}}
        .dump();
  }

  int OpenObjections() {
    v1::ListNoticesResponse list;
    EXPECT_TRUE(certs_->ListNotices(Context("").get(), {}, &list).ok());
    return list.notices_size() == 1 ? list.notices(0).open_objections() : -1;
  }

  v1::Certificate four_;
  int posts_ = 0;
};

TEST_F(WebPostGuardTest,
       ChunkedOrCompressedBodyOverTheLimitIs413AndStoresNothing) {
  auto before = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(before.ok()) << before.status();

  // 20 KiB of JSON in one chunk, then 16 KiB more, and no last chunk: no
  // Content-Length for httplib to check, and a body that never ends.
  const std::string head =
      "{\"number\":\"" + four_.number() + "\",\"contact\":\"c\",\"text\":\"";
  const std::string filler(20 * 1024, 'x');
  RawAnswer chunked =
      RawPost(http_port_, "/api/v1/objections", "application/json",
              {head + filler, std::string(16 * 1024, 'x')});
  EXPECT_EQ(chunked.status, 413) << chunked.head << chunked.body;
  EXPECT_TRUE(Has(chunked.body, "\"code\":\"RESOURCE_EXHAUSTED\""))
      << chunked.body;
  EXPECT_TRUE(Has(chunked.body, "at most 16384 bytes")) << chunked.body;
  EXPECT_TRUE(Has(chunked.head, "Connection: close")) << chunked.head;

  // The page's form, chunked, is held to the same limit.
  RawAnswer chunked_form =
      RawPost(http_port_, "/objections", "application/x-www-form-urlencoded",
              {"number=" + four_.number() +
                   "&contact=c&form_token=" + TokenFor() + "&text=",
               filler});
  EXPECT_EQ(chunked_form.status, 413) << chunked_form.head << chunked_form.body;

  // 64 KiB that gzip squeezes under the limit: the limit is on what it
  // inflates to.
  auto gzip_client = WebClient();
  gzip_client->set_compress(true);
  auto compressed = gzip_client->Post(
      "/api/v1/objections", head + std::string(64 * 1024, 'x') + "\"}",
      "application/json");
  ASSERT_TRUE(compressed) << httplib::to_string(compressed.error());
  EXPECT_EQ(compressed->status, 413) << compressed->body;

  // A body-carrying method with no route is refused unread.
  auto put = WebClient()->Put("/api/v1/objections", Json(), "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 405) << put->body;
  EXPECT_EQ(put->get_header_value("Allow"), "GET, HEAD, POST");

  auto after = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*before, *after);

  // Chunked within the limit is fine: the limit is on size, not framing.
  const std::string body = Json();
  auto small = WebClient()->Post(
      "/api/v1/objections",
      [&](size_t, httplib::DataSink& sink) {
        sink.write(body.data(), body.size());
        sink.done();
        return true;
      },
      "application/json");
  ASSERT_TRUE(small) << httplib::to_string(small.error());
  EXPECT_EQ(small->status, 200) << small->body;
  EXPECT_EQ(OpenObjections(), 1);
}

TEST_F(WebPostGuardTest, CrossSitePostsAreRefusedAndStoreNothing) {
  auto before = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(before.ok()) << before.status();
  const std::string token = TokenFor();
  auto client = WebClient();

  // A form on https://evil.example posting here (with a token the attacker
  // fetched for this very address: the Origin still gives it away).
  auto evil = client->Post("/objections", {{"Origin", "https://evil.example"}},
                           Form(token));
  ASSERT_TRUE(evil);
  EXPECT_EQ(evil->status, 403) << evil->body;
  EXPECT_TRUE(Has(evil->body, "PERMISSION_DENIED")) << evil->body;
  EXPECT_TRUE(Has(evil->body, "Origin: https://evil.example")) << evil->body;
  auto sandboxed =
      client->Post("/objections", {{"Origin", "null"}}, Form(token));
  ASSERT_TRUE(sandboxed);
  EXPECT_EQ(sandboxed->status, 403) << sandboxed->body;
  auto fetch_site = client->Post(
      "/objections", {{"Sec-Fetch-Site", "cross-site"}}, Form(token));
  ASSERT_TRUE(fetch_site);
  EXPECT_EQ(fetch_site->status, 403) << fetch_site->body;
  EXPECT_TRUE(Has(fetch_site->body, "Sec-Fetch-Site: cross-site"))
      << fetch_site->body;
  auto same_site = client->Post("/objections",
                                {{"Sec-Fetch-Site", "same-site"}}, Form(token));
  ASSERT_TRUE(same_site);
  EXPECT_EQ(same_site->status, 403) << same_site->body;

  // No Origin header (an old browser, a script): the token decides.
  auto no_token = client->Post("/objections", Form(""));
  ASSERT_TRUE(no_token);
  EXPECT_EQ(no_token->status, 403) << no_token->body;
  EXPECT_TRUE(Has(no_token->body, "form_token")) << no_token->body;
  EXPECT_TRUE(Has(no_token->body, "notices page")) << no_token->body;
  auto garbage = client->Post("/objections", Form("123.abc"));
  ASSERT_TRUE(garbage);
  EXPECT_EQ(garbage->status, 403) << garbage->body;
  std::string tampered = token;
  tampered[0] = tampered[0] == '1' ? '2' : '1';  // another issue time
  auto retimed = client->Post("/objections", Form(tampered));
  ASSERT_TRUE(retimed);
  EXPECT_EQ(retimed->status, 403) << retimed->body;
  // A token shown to another address (127.0.0.2) is no good from this one.
  auto elsewhere = client->Post("/objections", Form(TokenFor("127.0.0.2")));
  ASSERT_TRUE(elsewhere);
  EXPECT_EQ(elsewhere->status, 403) << elsewhere->body;
  EXPECT_TRUE(Has(elsewhere->body, "not issued by this page"))
      << elsewhere->body;

  // The JSON API: a "simple" text/plain post (no CORS preflight) is 415; so
  // is the form's encoding and multipart; a cross-site Origin is 403.
  auto text_plain = client->Post("/api/v1/objections", Json(), "text/plain");
  ASSERT_TRUE(text_plain);
  EXPECT_EQ(text_plain->status, 415) << text_plain->body;
  EXPECT_TRUE(Has(text_plain->body, "application/json")) << text_plain->body;
  auto urlencoded = client->Post("/api/v1/objections", Json(),
                                 "application/x-www-form-urlencoded");
  ASSERT_TRUE(urlencoded);
  EXPECT_EQ(urlencoded->status, 415) << urlencoded->body;
  auto multipart = WebClient()->Post(
      "/api/v1/objections",
      httplib::MultipartFormDataItems{{"number", four_.number(), "", ""}});
  ASSERT_TRUE(multipart);
  EXPECT_EQ(multipart->status, 415) << multipart->body;
  auto json_evil =
      client->Post("/api/v1/objections", {{"Origin", "https://evil.example"}},
                   Json(), "application/json");
  ASSERT_TRUE(json_evil);
  EXPECT_EQ(json_evil->status, 403) << json_evil->body;
  EXPECT_TRUE(Has(json_evil->body, "\"code\":\"PERMISSION_DENIED\""))
      << json_evil->body;
  // The form's encoding at the form's address needs the form's token too.
  auto form_plain =
      client->Post("/objections", "number=" + four_.number(), "text/plain");
  ASSERT_TRUE(form_plain);
  EXPECT_EQ(form_plain->status, 415) << form_plain->body;

  auto after = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*before, *after);
  EXPECT_EQ(OpenObjections(), 0);
}

TEST_F(WebPostGuardTest, ThePagesOwnFormAndSameOriginJsonStillWork) {
  auto client = WebClient();
  const std::string self = "http://127.0.0.1:" + std::to_string(http_port_);
  // What a browser sends from the page itself.
  auto lodged = client->Post(
      "/objections", {{"Origin", self}, {"Sec-Fetch-Site", "same-origin"}},
      Form(TokenFor()));
  ASSERT_TRUE(lodged);
  EXPECT_EQ(lodged->status, 200) << lodged->body;
  EXPECT_TRUE(Has(lodged->body, "id=\"objection-id\">1<")) << lodged->body;
  EXPECT_TRUE(Has(lodged->body, "<html lang=\"en\">"))
      << lodged->body;  // the form's lang
  // Behind a proxy: the Origin is public_base_url's, the Host is not.
  auto proxied =
      client->Post("/objections", {{"Origin", "https://rank.example.org"}},
                   Form(TokenFor()));
  ASSERT_TRUE(proxied);
  EXPECT_EQ(proxied->status, 200) << proxied->body;
  // A script: no Origin, JSON with its charset.
  auto json = client->Post("/api/v1/objections", Json(),
                           "application/json; charset=utf-8");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->status, 200) << json->body;
  auto json_same =
      client->Post("/api/v1/objections",
                   {{"Origin", self}, {"Sec-Fetch-Site", "same-origin"}},
                   Json(), "application/json");
  ASSERT_TRUE(json_same);
  EXPECT_EQ(json_same->status, 200) << json_same->body;
  EXPECT_EQ(OpenObjections(), 4);
}

}  // namespace
}  // namespace gorank::web
