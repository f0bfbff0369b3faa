#!/usr/bin/env bash
# Installs what g500 needs on a fresh Debian machine; a no-op when all is present.
set -euo pipefail
packages=(build-essential cmake libopenmpi-dev openmpi-bin libcli11-dev
          nlohmann-json3-dev libgtest-dev libhwy-dev python3 python3-pip time clang)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
# matplotlib for scripts/g500-plot and bench/ plots (and the plot test), for whichever python3 runs
# them: pip first, then Debian's package.
if ! python3 -c 'import matplotlib' 2>/dev/null; then
  python3 -m pip install --quiet matplotlib 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages matplotlib 2>/dev/null || true
fi
if ! python3 -c 'import matplotlib' 2>/dev/null; then
  echo "install-deps: error: matplotlib could not be installed for $(command -v python3) (g500-plot needs it)" >&2
  exit 1
fi
