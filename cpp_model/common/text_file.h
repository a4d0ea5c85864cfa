// Reading a text input (the simulator's scenarios, CDFs and flow lists, a bench's coverage
// bins, dcqcn_trace's CNP list) with a size cap: a device or an endless stream given as an
// input ends in one clear error instead of a hang.
#pragma once
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace ll {

constexpr size_t kMaxInputBytes = 64u << 20;  // 64 MiB: far above any real scenario or list

// The whole file; throws std::runtime_error naming `what`: a directory, cannot open, larger
// than 64 MiB.
inline std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(what + " is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + what);
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      throw std::runtime_error(what + " is larger than 64 MiB (a device or an endless stream?)");
  }
  return text;
}

}  // namespace ll
