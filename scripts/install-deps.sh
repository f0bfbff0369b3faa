#!/usr/bin/env bash
# Installs what g500 needs on a fresh Debian machine; a no-op when all is present.
set -euo pipefail
packages=(build-essential cmake libopenmpi-dev openmpi-bin libcli11-dev
          nlohmann-json3-dev libgtest-dev libhwy-dev python3 python3-pip time clang
          clang-format  # scripts/check-format: changed lines as .clang-format says (make check, make test)
          libsimgrid-dev simgrid  # SimGrid: smpicxx and smpirun for g500-smpi (make sim)
          lmod)  # Lmod: the module tool the EasyBuild packaging test installs g500 under
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
# Python packages, from PyPI, for whichever python3 runs them: matplotlib for scripts/g500-plot and
# bench/ plots (and the plot test); reframe-hpc for the ReFrame check (reframe/g500.py, its test);
# EasyBuild (framework and easyblocks) for the packaging test (packaging/easybuild, docs/install.md).
# The import is tried from / so that a folder of the checkout (reframe/) is not taken for the package.
installed() { (cd / && python3 -c "import $1" 2>/dev/null); }
pip_install() {  # module, then the pip requirement
  installed "$1" && return 0
  python3 -m pip install --quiet "$2" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "$2" 2>/dev/null || true
  installed "$1" && return 0
  echo "install-deps: error: $2 could not be installed for $(command -v python3)" >&2
  exit 1
}
pip_install matplotlib matplotlib
pip_install reframe.frontend "reframe-hpc==4.10.4"
pip_install easybuild.main "easybuild-framework==5.1.2"
pip_install easybuild.easyblocks.generic.cmakemake "easybuild-easyblocks==5.1.2"
