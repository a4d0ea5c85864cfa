#include "sim/out_dir.h"

#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace ll::sim {
namespace {

std::string q(const fs::path& p) { return "\"" + p.string() + "\""; }

// Can this process create entries in directory d? Probed with a scratch file, since
// permission bits alone say nothing about root, ACLs or read-only mounts.
bool writable(const fs::path& d) {
  const fs::path probe = d / ".lossless_sim_probe";
  {
    std::ofstream f(probe);
    if (!f) return false;
  }
  std::error_code ec;
  fs::remove(probe, ec);
  return true;
}

}  // namespace

OutDir::OutDir(const std::string& path) : dir_(path) {
  if (path.empty()) throw Error("--out: empty path");
  std::error_code ec;
  const fs::file_status st = fs::status(dir_, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) throw Error("--out " + q(dir_) + ": exists and is not a directory");
    const bool empty = fs::is_empty(dir_, ec);
    if (ec) throw Error("--out " + q(dir_) + ": cannot read the directory (" + ec.message() + ")");
    if (!empty && !fs::exists(dir_ / kMarker)) {
      throw Error("--out " + q(dir_) + ": exists, is not empty and was not written by lossless_sim "
                  "(no " + kMarker + " in it); refusing to replace it");
    }
    if (!writable(dir_)) throw Error("--out " + q(dir_) + ": directory is not writable");
    return;
  }
  // The nearest existing ancestor must be a writable directory.
  fs::path anc = fs::absolute(dir_, ec).parent_path();
  while (!anc.empty() && !fs::exists(anc, ec) && anc != anc.root_path()) anc = anc.parent_path();
  if (!fs::is_directory(anc, ec)) throw Error("--out " + q(dir_) + ": " + q(anc) + " is not a directory");
  if (!writable(anc)) throw Error("--out " + q(dir_) + ": cannot create it under " + q(anc) + " (not writable)");
}

void OutDir::refuse_input_inside(const std::string& input, const std::string& what) const {
  std::error_code ec;
  // a new directory holds nothing yet; an input that is not a file (a CDF given inline) is
  // not deleted with it
  if (input.empty() || !fs::is_directory(dir_, ec) || !fs::exists(input, ec)) return;
  const fs::path d = fs::canonical(dir_, ec);  // an existing directory: no trailing "/" or "."
  if (ec) return;
  const fs::path in = fs::canonical(input, ec);
  if (ec) return;
  auto di = d.begin(), ii = in.begin();
  for (; di != d.end() && ii != in.end() && *di == *ii; ++di, ++ii) {
  }
  if (di == d.end()) {
    throw Error("--out " + q(dir_) + ": holds the " + what + " " + q(input) +
                ", which replacing the directory would delete; write the run elsewhere");
  }
}

void OutDir::create() const {
  std::error_code ec;
  if (fs::exists(dir_ / kMarker, ec)) {
    fs::remove_all(dir_, ec);  // written by us before: replaced whole
    if (ec) throw Error("--out " + q(dir_) + ": cannot remove the previous run (" + ec.message() + ")");
  }
  fs::create_directories(dir_, ec);
  if (ec) throw Error("--out " + q(dir_) + ": cannot create it (" + ec.message() + ")");
  std::ofstream m(dir_ / kMarker);
  m << "written by lossless_sim; the next run with this --out replaces the directory\n";
  if (!m) throw Error("--out " + q(dir_) + ": cannot write " + kMarker);
}

}  // namespace ll::sim
