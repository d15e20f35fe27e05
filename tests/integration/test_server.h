// The old name of testing::InProcessServer (tests/testing/in_process_server.h),
// kept only for access_matrix_test.cc until it moves over too.
#ifndef GORANK_TESTS_INTEGRATION_TEST_SERVER_H_
#define GORANK_TESTS_INTEGRATION_TEST_SERVER_H_

#include "tests/testing/in_process_server.h"

namespace gorank::integration {

using TestServer = testing::InProcessServer;

}  // namespace gorank::integration

#endif  // GORANK_TESTS_INTEGRATION_TEST_SERVER_H_
