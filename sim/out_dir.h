// The simulator's output directory (--out), with rules that never lose a user's files:
//   - created with its parents;
//   - a path that is a file, or under a file, or not writable, is refused before the run;
//   - nothing is created until the scenario is valid (a bad scenario leaves no directory);
//   - an existing directory is replaced whole only if lossless_sim wrote it (it holds the
//     marker file kMarker), and otherwise refused unless it is empty.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>

namespace ll::sim {

class OutDir {
 public:
  static constexpr const char* kMarker = ".lossless_sim";

  struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  // Checks the path without creating anything; throws Error naming the problem.
  explicit OutDir(const std::string& path);
  // Creates (or empties, when marked) the directory and writes the marker; throws Error.
  void create() const;
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace ll::sim
