// --out rules (sim/out_dir.h): create with parents, refuse files and foreign directories,
// replace only what lossless_sim wrote, create nothing before create().
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/out_dir.h"

namespace fs = std::filesystem;
using ll::sim::OutDir;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path p = fs::path(LL_SIM_TEST_TMP) / "out_dir" / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void touch(const fs::path& p) { std::ofstream(p) << "x\n"; }

}  // namespace

TEST(OutDir, CreatedWithParentsOnlyByCreate) {
  const fs::path root = scratch("parents");
  const fs::path d = root / "a" / "b" / "c";
  const OutDir out(d.string());
  EXPECT_FALSE(fs::exists(root / "a")) << "the check must not create anything";
  out.create();
  EXPECT_TRUE(fs::is_directory(d));
  EXPECT_TRUE(fs::exists(d / OutDir::kMarker));
}

TEST(OutDir, ReplacesWhatItWroteWhole) {
  const fs::path d = scratch("ours") / "run";
  OutDir(d.string()).create();
  touch(d / "flows.csv");
  touch(d / "stale.png");
  const OutDir again(d.string());
  again.create();
  EXPECT_FALSE(fs::exists(d / "stale.png")) << "a directory we wrote is replaced whole";
  EXPECT_FALSE(fs::exists(d / "flows.csv"));
  EXPECT_TRUE(fs::exists(d / OutDir::kMarker));
}

TEST(OutDir, RefusesAForeignNonEmptyDirectory) {
  const fs::path d = scratch("foreign");
  touch(d / "thesis.tex");
  try {
    OutDir out(d.string());
    FAIL() << "a foreign directory was accepted";
  } catch (const OutDir::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not written by lossless_sim"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::exists(d / "thesis.tex"));
}

TEST(OutDir, AcceptsAnEmptyDirectory) {
  const fs::path d = scratch("empty");
  const OutDir out(d.string());
  out.create();
  EXPECT_TRUE(fs::exists(d / OutDir::kMarker));
}

TEST(OutDir, RefusesAFileAndAPathUnderAFile) {
  const fs::path root = scratch("file");
  touch(root / "f");
  EXPECT_THROW(OutDir((root / "f").string()), OutDir::Error);
  EXPECT_THROW(OutDir((root / "f" / "sub").string()), OutDir::Error);
  EXPECT_THROW(OutDir(""), OutDir::Error);
}
