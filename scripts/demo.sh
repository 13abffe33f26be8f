#!/usr/bin/env bash
# `make demo`: Dinger's main job on a fresh local data repository, offline, no server:
# set it up, add the three Scrumdinger sample scrums, list them, change one, read `git log`,
# undo, see what `dinger check` says about a hand edit gone wrong, and sync with a teammate
# through a bare repository standing in for the team's remote.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
: "${DINGER:?path to the dinger binary}"
: "${DEMO_DIR:?where to make the demo data}"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { step "$*"; "$@"; }
dinger() { "$DINGER" "$@"; }

rm -rf "$DEMO_DIR"
mkdir -p "$DEMO_DIR"
cd "$DEMO_DIR"
# A git identity for the demo's commits, only when the machine has none.
if ! git config user.name >/dev/null 2>&1 || ! git config user.email >/dev/null 2>&1; then
  export HOME="$DEMO_DIR/.home"
  mkdir -p "$HOME/data"
  git config --global user.name "Dinger Demo"
  git config --global user.email "demo@example.com"
fi
mkdir -p data && cd data

run dinger init
run dinger scrum new Design --theme yellow --length 10 --attendee Cathy --attendee Daisy --attendee Simon --attendee Jonathan
run dinger scrum new "App Dev" --theme orange --length 5 --attendee Katie --attendee Gray --attendee Euna --attendee Luis --attendee Darla
run dinger scrum new "Web Dev" --theme poppy --length 5 --attendee Chella --attendee Chris --attendee Christina --attendee Eden --attendee Karla --attendee Lindsey --attendee Aga --attendee Chad --attendee Jenn --attendee Sarah
run dinger scrum list
run dinger scrum edit design --length 15
run dinger scrum attendee add design Bob
run dinger scrum edit design --at 09:30 --days weekdays --zone Europe/Berlin
run dinger scrum edit app-dev --at 10:00 --days mon,wed,fri --zone America/New_York
run dinger scrum edit design --skip "$(date -d 'next friday' +%F)"
step TZ=Asia/Kolkata dinger agenda --days 3
TZ=Asia/Kolkata dinger agenda --days 3
run dinger calendar --out "$DEMO_DIR/standups.ics"
echo "(a calendar app imports or subscribes to $DEMO_DIR/standups.ics; docs/ci.md publishes it from CI)"
run dinger scrum show design
run cat scrums/design.yaml
run git log --format='%h %an: %s'
run git log -1 --format=%B
run dinger scrum rm web-dev
run dinger undo
run git status --short
echo "(git status is clean: every change above is exactly one commit)"

echo
echo "A meeting transcribed by speaker, offline. This machine has no microphone, so three voices"
echo "made by flite stand in for App Dev's stand-up; 'dinger meet app-dev --transcribe' hears a"
echo "live one the same way, from the default sound source."
mapfile -t starts < <(python3 "$HERE/demo-recording.py" "$DEMO_DIR/standup.wav" \
  "slt:Yesterday I finished the login page. Today I will review the pull requests." \
  "rms:I fixed the bug in the payment service and wrote more tests." \
  "awb:I am blocked on the database migration. I need help from Katie.")
run dinger meet app-dev --record --audio "$DEMO_DIR/standup.wav" \
  --turn "Katie=${starts[0]}" --turn "Gray=${starts[1]}" --turn "Euna=${starts[2]}"
run dinger history show "$(ls history/app-dev | head -1 | sed 's/\.yaml$//')"
echo "(the recording stays outside the repository: only the text is committed)"

echo
echo "Word libraries: the team's vocabulary, one file per library, one commit per change."
run dinger library new "Spanish basics" --language es
run dinger word add hola --library spanish-basics --definition hello --pos interjection --example "¡Hola, amigo!"
run dinger word add gato --library spanish-basics --definition cat --phonetic /ˈɡato/
run dinger word add perro --library spanish-basics --definition dog
run dinger word list
step dinger word lookup hola --language es
dinger word lookup hola --language es
echo "(no dictionary service is configured here, so the team's own libraries answer)"
run cat libraries/spanish-basics.yaml

echo
echo "Now a hand edit with mistakes: a typo in the theme, a length in words, a duplicate attendee."
sed -i 's/theme: yellow/theme: yelow/; s/length: 15/length: ten/; s/  - Simon/  - Simon\n  - cathy/' scrums/design.yaml
step dinger check
dinger check || echo "(exit status $? — the data repository has errors; nothing was changed)"
git checkout -q -- scrums/design.yaml
echo
echo "Sharing with the team: a bare repository stands in for the team's remote; Grace clones it."
run git init -q --bare -b main "$DEMO_DIR/team.git"
run dinger remote add origin "$DEMO_DIR/team.git"
run dinger sync
cd "$DEMO_DIR"
run dinger clone "$DEMO_DIR/team.git" grace
cd grace && git config user.name "Grace Hopper" && git config user.email grace@example.com && cd ..
echo "(Both change the Design scrum: different fields, an attendee each, and the same field.)"
cd "$DEMO_DIR/data"
run dinger scrum edit design --theme teal --length 20
run dinger scrum attendee add design Ada
run dinger sync
cd "$DEMO_DIR/grace"
run dinger scrum edit design --title "Design Review" --length 25
run dinger scrum attendee add design Linus
# NB: a sync that records a conflict exits 1: the sync is done, and a person must decide.
run dinger sync || echo "(exit status $?: synced, and a conflict waits for a person)"
run cat scrums/design.yaml
run dinger conflicts
run dinger resolve "$(dinger conflicts --json | sed -n 's/.*"id" : "\(........\).*/\1/p' | head -1)" --theirs
run dinger sync
cd "$DEMO_DIR/data"
run dinger sync
run git log --graph --format='%h %an: %s' -8
run git status --short
echo "(no conflict markers anywhere: every value is in the data, and the settled conflict is a commit)"
echo
echo
echo "Team insights: the figures behind the history, as a web page and in the terminal."
echo "(first, three weeks of Design stand-ups as the timer would have recorded them, committed with git)"
design_id=$(sed -n 's/^id: //p' scrums/design.yaml)
design_dir=history/design
mkdir -p "$design_dir"
n=0
for back in 19 18 17 16 15 12 11 10 9 8 5 4 3 2 1; do
  day=$(date -u -d "$back days ago" +%F)
  case $(date -u -d "$day" +%u) in 6|7) continue;; esac
  n=$((n + 1))
  a=$((60 + (n * 37) % 120)); b=$((90 + (n * 53) % 100)); c=$((50 + (n * 29) % 90)); d=$((40 + (n * 71) % 160))
  absent=$(( n % 4 ))
  {
    echo "id: 00000000-0000-4000-8000-$(printf '%012d' $n)"
    echo "scrum: $design_id"
    echo "date: ${day}T08:3$((n % 6)):00Z"
    echo "length: 15"
    echo "duration: $((a + b + c + (absent == 0 ? 0 : d)))"
    echo "attendees: [Cathy, Daisy, Simon, Jonathan, Bob]"
    echo "speakers:"
    echo "  - {name: Cathy, seconds: $a}"
    echo "  - {name: Daisy, seconds: $b}"
    echo "  - {name: Simon, seconds: $c}"
    if [ $absent -ne 0 ]; then echo "  - {name: Jonathan, seconds: $d}"; fi
  } > "$design_dir/$day-$(printf '%08d' $n).yaml"
done
git add history && git commit -q -m "Three weeks of Design stand-ups (demo data)"
run dinger stats
run dinger report --out "$DEMO_DIR/report.html"
echo "(open $DEMO_DIR/report.html in a browser: self-contained, no network; 'dinger report --out DIR/' writes a page per scrum)"
echo "Demo data left in $DEMO_DIR/data (and Grace's clone in $DEMO_DIR/grace)"
