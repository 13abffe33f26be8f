#!/usr/bin/env bash
# `make demo`: a fresh data directory from Templates/, checked; then a hand edit gone wrong, and
# what `dinger check` says about it. Runs offline, no server.
set -euo pipefail
: "${DINGER:?path to the dinger binary}"
: "${DEMO_DIR:?where to make the demo data}"
here="$(cd "$(dirname "$0")/.." && pwd)"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

rm -rf "$DEMO_DIR"
mkdir -p "$DEMO_DIR"
cp -R "$here/Templates/scaffold/." "$here/Templates/samples/." "$DEMO_DIR/"
cd "$DEMO_DIR"

step "ls scrums history/design libraries"
ls scrums history/design libraries
step "cat scrums/design.yaml"
cat scrums/design.yaml
step "dinger check"
"$DINGER" check

echo
echo "Now a hand edit with mistakes: a typo in the theme, a length in words, a duplicate attendee."
sed -i 's/theme: yellow/theme: yelow/; s/length: 10/length: ten/; s/  - Simon/  - Simon\n  - cathy/' scrums/design.yaml
step "dinger check"
"$DINGER" check || echo "(exit status $? — the data repository has errors)"
step "dinger check --json scrums/app-dev.yaml"
"$DINGER" check --json scrums/app-dev.yaml
echo
echo "Demo data left in $DEMO_DIR"
