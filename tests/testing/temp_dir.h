// TempDir: a fresh private directory for one test (databases, token files,
// logs), removed with everything in it when the object goes away. Tests run
// in parallel under ctest, so every test takes its own.
#ifndef GORANK_TESTS_TESTING_TEMP_DIR_H_
#define GORANK_TESTS_TESTING_TEMP_DIR_H_

#include <string>

namespace gorank::testing {

// Not thread-safe; owned by one test.
class TempDir {
 public:
  // Creates "$TMPDIR/gorank_test_XXXXXX" (TMPDIR defaults to /tmp). Aborts
  // when the directory cannot be created (the test cannot run anyway).
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name.
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_TEMP_DIR_H_
