// The simulator's output directory (--out), with rules that never lose a user's files:
//   - created with its parents;
//   - a path that is a file, or under a file, or not writable, is refused before the run;
//   - nothing is created until the scenario is valid (a bad scenario leaves no directory);
//   - an existing directory is replaced whole only if lossless_sim wrote it (it holds the
//     marker file kMarker), and otherwise refused unless it is empty;
//   - a directory that holds one of the run's inputs (the scenario, a flow list, a size CDF,
//     the --workloads directory) is refused,
//     since replacing it would delete that input.
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
  // Throws Error when `input` (a file or directory the run reads; `what` names it) lies in
  // this directory, which create() would replace.
  void refuse_input_inside(const std::string& input, const std::string& what) const;
  // Creates (or empties, when marked) the directory and writes the marker; throws Error.
  void create() const;
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace ll::sim
