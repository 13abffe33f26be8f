#!/usr/bin/env bash
# Builds two packages from binaries already built in $BIN_DIR (release, with the Swift runtime
# linked in statically):
#   dinger_<version>_<arch>.deb             dinger, its man page, bash, zsh and fish completions,
#                                           changelog and copyright; depends on the libraries
#                                           dinger links or opens (libgit2, libcurl, libyaml), and
#                                           nothing of speech or sound
#   dinger-transcribe_<version>_<arch>.deb  the speech helper of `meet --transcribe` and its man
#                                           page; depends on dinger, PocketSphinx, its English
#                                           model and PulseAudio's client library
# A teammate who only writes stand-ups installs the first alone (dinger suggests the second).
# Writes the path of dinger's package to stdout; the helper's lies beside it.
set -euo pipefail
: "${BIN_DIR:?BIN_DIR must name the release build folder}"
: "${OUT_DIR:=.build-deb}"
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
version="$("$BIN_DIR/dinger" --version)-1"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Debian's Depends for what the binaries given link (dpkg-shlibdeps).
linked() {
  rm -rf "$work/shlibs" && mkdir -p "$work/shlibs/debian"
  printf 'Source: dinger\n\nPackage: dinger\nArchitecture: any\n' > "$work/shlibs/debian/control"
  local out
  out="$(cd "$work/shlibs" && dpkg-shlibdeps -O "$@" | sed -n 's/^shlibs:Depends=//p')"
  [ -n "$out" ] || { echo "dpkg-shlibdeps found no libraries in $*" >&2; exit 1; }
  echo "$out"
}

# The package's control file, checksums, modes, and the .deb itself.
finish() { # STAGE NAME DEPENDS CONTROL_TEMPLATE
  local stage="$1" name="$2" depends="$3" template="$4" size
  local doc="$stage/usr/share/doc/$name"
  install -d "$doc"
  install -m 644 "$here/packaging/debian/copyright" "$doc/copyright"
  gzip -9n < "$here/packaging/debian/changelog" > "$doc/changelog.Debian.gz"
  chmod 644 "$doc/changelog.Debian.gz"
  size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
  mkdir -p "$stage/DEBIAN"
  sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    -e "s/@DEPENDS@/$depends/" "$template" > "$stage/DEBIAN/control"
  (cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
  chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
  find "$stage" -type d -exec chmod 755 {} +
  dpkg-deb --build --root-owner-group "$stage" "$OUT_DIR/" >&2
}

# dinger
stage="$OUT_DIR/dinger_${version}_${arch}"
rm -rf "$stage"
mkdir -p "$stage"
make -s -C "$here" install-files BIN_DIR="$BIN_DIR" DESTDIR="$stage" PREFIX=/usr >&2
# The helper goes in a package of its own (its libraries are speech and sound).
helper_stage="$OUT_DIR/dinger-transcribe_${version}_${arch}"
rm -rf "$helper_stage"
mkdir -p "$helper_stage/usr/bin" "$helper_stage/usr/share/man/man1"
[ -x "$stage/usr/bin/dinger-transcribe" ] || {
  echo "$BIN_DIR has no dinger-transcribe: build it first" >&2
  exit 1
}
mv "$stage/usr/bin/dinger-transcribe" "$helper_stage/usr/bin/dinger-transcribe"
mv "$stage/usr/share/man/man1/dinger-transcribe.1" "$helper_stage/usr/share/man/man1/"
gzip -9n "$helper_stage/usr/share/man/man1/dinger-transcribe.1"
# Debian's places: zsh completions under vendor-completions, man pages compressed.
mkdir -p "$stage/usr/share/zsh/vendor-completions"
mv "$stage/usr/share/zsh/site-functions/_dinger" "$stage/usr/share/zsh/vendor-completions/_dinger"
rmdir "$stage/usr/share/zsh/site-functions"
# NB: generate-manual leaves blank lines between paragraphs, which groff warns about in
# mdoc; .Pp is mdoc's paragraph break.
sed -i 's/^$/.Pp/' "$stage/usr/share/man/man1/dinger.1"
gzip -9n "$stage/usr/share/man/man1/dinger.1"
# A completion file is sourced, not run: no #! line.
sed -i '1{/^#!/d}' "$stage/usr/share/bash-completion/completions/dinger"
# NB: dinger opens libgit2 and libcurl with dlopen when it first needs them: named by hand.
git2="$(dpkg -S "libgit2.so.$(pkg-config --modversion libgit2 | cut -d. -f1,2)" | head -1 | cut -d: -f1)"
finish "$stage" dinger "$(linked "$stage/usr/bin/dinger"), $git2, libcurl4" \
  "$here/packaging/debian/control.in"

# dinger-transcribe
finish "$helper_stage" dinger-transcribe \
  "$(linked "$helper_stage/usr/bin/dinger-transcribe"), dinger (= $version), pocketsphinx-en-us" \
  "$here/packaging/debian/control-transcribe.in"
echo "$OUT_DIR/dinger_${version}_${arch}.deb"
