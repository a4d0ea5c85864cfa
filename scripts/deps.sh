#!/usr/bin/env bash
# Install the Debian 12 packages the project needs, only those that are missing.
# Idempotent; uses sudo when not root. The package list is the single source of truth:
# add a dependency here and every flow (make demo / make test / CI) gets it.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config   # C++17 toolchain and build
  python3                                               # flow scripts (stdlib only)
  verilator libsystemc-dev                              # lint and lockstep benches
  googletest libgtest-dev                               # unit tests
  iverilog                                              # second-opinion lint
  yosys nextpnr-ice40 fpga-icestorm                     # synthesis, place and route
  gtkwave                                               # viewing first-mismatch waveforms
  nlohmann-json3-dev                                    # scenario and report files (sim)
  libtomlplusplus-dev                                   # TOML scenario files (sim)
  gnuplot-nox                                           # plots (sim, dcqcn_trace)
  libcli11-dev libfmt-dev                               # command lines, formatting
  pyflakes3                                             # Python lint (make lint)
  opensta                                               # static timing (make synth)
  z3 boolector                                          # formal (yosys-smtbmc)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "deps: done"
