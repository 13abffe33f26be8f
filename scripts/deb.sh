#!/usr/bin/env bash
# Builds dinger_<version>_<arch>.deb from binaries already built in $BIN_DIR (release, with the
# Swift runtime linked in statically): both binaries, the man page, bash, zsh and fish
# completions, the changelog and copyright file, and the libraries dinger loads declared as
# dependencies (dpkg-shlibdeps for what the binaries link; libgit2 and libcurl by hand, since
# dinger opens those with dlopen when it first needs them). Writes the package path to stdout.
set -euo pipefail
: "${BIN_DIR:?BIN_DIR must name the release build folder}"
: "${OUT_DIR:=.build-deb}"
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
version="$("$BIN_DIR/dinger" --version)-1"
arch="$(dpkg --print-architecture)"
stage="$OUT_DIR/dinger_${version}_${arch}"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
make -s -C "$here" install-files BIN_DIR="$BIN_DIR" DESTDIR="$stage" PREFIX=/usr >&2
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
doc="$stage/usr/share/doc/dinger"
install -d "$doc"
install -m 644 "$here/packaging/debian/copyright" "$doc/copyright"
gzip -9n < "$here/packaging/debian/changelog" > "$doc/changelog.Debian.gz"
chmod 644 "$doc/changelog.Debian.gz"
# What the binaries link, as Debian package names with versions.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: dinger\n\nPackage: dinger\nArchitecture: any\n' > "$work/debian/control"
binaries=("$stage/usr/bin/dinger")
[ -x "$stage/usr/bin/dinger-transcribe" ] && binaries+=("$stage/usr/bin/dinger-transcribe")
linked="$(cd "$work" && dpkg-shlibdeps -O "${binaries[@]}" | sed -n 's/^shlibs:Depends=//p')"
[ -n "$linked" ] || { echo "dpkg-shlibdeps found no libraries" >&2; exit 1; }
git2="$(dpkg -S "libgit2.so.$(pkg-config --modversion libgit2 | cut -d. -f1,2)" | head -1 | cut -d: -f1)"
depends="$linked, $git2, libcurl4"
size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  "$here/packaging/debian/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 755 {} +
dpkg-deb --build --root-owner-group "$stage" "$OUT_DIR/" >&2
echo "$OUT_DIR/dinger_${version}_${arch}.deb"
