// pfc_buffer_calc: the PFC/ECN buffer-threshold calculator (docs/pfc.md).
#include <iostream>
#include <string>
#include <vector>

#include "pfc/pfc_buffer.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string out, err;
  const int rc = ll::pfc::buffer::run(args, out, err);
  std::cout << out;
  std::cerr << err;
  return rc;
}
