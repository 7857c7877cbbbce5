#!/usr/bin/env bash
# Make sure .venv exists and holds paris-tui (editable) with the given extras;
# reinstalls when pyproject.toml is newer than the last install.
# Usage (from the repository root): bash scripts/_venv.sh [EXTRAS]
#   bash scripts/_venv.sh        the game only (scripts/play)
#   bash scripts/_venv.sh dev    with the test tools (scripts/test)
# Run it as a command, never `source` it: sourced, it would see the caller's
# arguments as its own and read a game option as an extra.
# PYTHON=/path/to/python3 chooses the interpreter of a new environment; VENV=DIR
# puts the environment in DIR instead of .venv (.ci/run: one per Python it tries).
set -euo pipefail
if [ "$#" -gt 1 ]; then
  echo "usage: scripts/_venv.sh [EXTRAS]" >&2
  exit 2
fi
extras="${1:-}"
case "$extras" in
  "" | dev) ;;
  *) echo "scripts/_venv.sh: unknown extra '$extras' (expected nothing or 'dev')" >&2; exit 2 ;;
esac
find_python() {
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3 python; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
venv="${VENV:-.venv}"
# A folder left by a `python3 -m venv` that failed half-way (Debian's python3 without
# python3-venv makes bin/python, then stops for want of ensurepip) has no pip: start again.
if [ -x "$venv/bin/python" ] && [ ! -e "$venv/bin/pip" ]; then
  echo "$venv has no pip (a virtual environment made half-way): making it again ..." >&2
  rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  py=$(find_python) || { echo "paris-tui needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)" >&2; exit 1; }
  echo "Creating $venv with $py ($("$py" -c 'import platform; print(platform.python_version())')) ..." >&2
  if ! "$py" -m venv "$venv"; then
    rm -rf "$venv"
    echo "could not make a virtual environment with $py; on Debian or Ubuntu its venv module is" \
      "a package of its own: apt-get install python3-venv" >&2
    exit 1
  fi
fi
fresh() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ]; }
stamp="$venv/.installed${extras:+-$extras}"
# An install with the dev extras holds the game too.
if ! fresh "$stamp" && ! { [ -z "$extras" ] && fresh "$venv/.installed-dev"; }; then
  echo "Installing paris-tui${extras:+ with [$extras]} into $venv ..." >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
  touch "$stamp"
fi
