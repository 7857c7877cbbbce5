# Sourced by scripts/play and scripts/test: make sure .venv exists and holds
# paris-tui (editable) with the given extras. Reinstalls when pyproject.toml changes.
# Usage: source scripts/_venv.sh [dev]
extras="${1:-}"
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
if [ ! -x .venv/bin/python ]; then
  py=$(find_python) || { echo "paris-tui needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)" >&2; exit 1; }
  echo "Creating .venv with $py ..." >&2
  "$py" -m venv .venv
fi
stamp=".venv/.installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "Installing paris-tui${extras:+ with [$extras]} into .venv ..." >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
  touch "$stamp"
fi
