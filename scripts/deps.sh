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
  slurm-wlm munge                                       # cluster runs (scripts/jobs.py, test_slurm.py)
)
# Packages that ship daemons: installed, never started or left enabled (scripts/test_slurm.py
# starts its own on 127.0.0.1 from a temporary directory and stops them).
DAEMONS=(munge slurmctld slurmd slurmdbd)

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
# policy-rc.d exit 101 tells the packages' maintainer scripts not to start any service;
# an existing one (e.g. a container's) is kept and restored.
policy=/usr/sbin/policy-rc.d
saved=""
if $SUDO test -e "$policy"; then saved=$($SUDO mktemp); $SUDO cp -p "$policy" "$saved"; fi
restore_policy() {
  if [ -n "$saved" ]; then $SUDO mv -f "$saved" "$policy"; else $SUDO rm -f "$policy"; fi
}
trap restore_policy EXIT
printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
$SUDO chmod 755 "$policy"
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
# the packages enable their units at install time: disable them again (offline, no daemon
# is contacted; a machine without systemd has nothing to disable). No pipes here: under
# pipefail a `| grep -q` that exits early would fail the test itself.
if command -v systemctl >/dev/null 2>&1; then
  for d in "${DAEMONS[@]}"; do
    if systemctl is-enabled --quiet "$d.service" 2>/dev/null; then
      $SUDO systemctl disable --quiet "$d.service" >/dev/null 2>&1 || true
      if systemctl is-enabled --quiet "$d.service" 2>/dev/null; then
        echo "deps: could not disable $d.service (run: sudo systemctl disable $d)" >&2
        exit 1
      fi
      echo "deps: $d.service installed, left disabled"
    fi
  done
fi
echo "deps: done"
