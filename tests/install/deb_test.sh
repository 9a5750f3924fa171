#!/usr/bin/env bash
# ctest install.deb: builds the Debian package from BUILD (cpack -G DEB, as
# `make deb` does, into a temporary directory) and inspects it: its name,
# its version (the project's, the git revision of `flashmark --version`),
# its dependencies (the runtime libraries flashmark links, each installed
# here), its files (program, man pages, completions, examples, copyright),
# lintian with no error or warning but the stated exception. Then installs
# it into a scratch dpkg root (dpkg --root: the machine's own packages are
# left alone) and runs the installed program: --version, a null run, a
# report.
#   tests/install/deb_test.sh BUILD
# Lintian's stated exception: initial-upload-closes-no-bugs (the package is
# not uploaded to Debian, so there is no ITP bug to close).
set -euo pipefail
BUILD="$(cd "$1" && pwd)"
work="$(mktemp -d /tmp/flashmark-deb.XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack -G DEB -B "$work/package" --config "$BUILD/CPackConfig.cmake" >"$work/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$work/cpack.log")"
debs=("$work"/package/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single .deb: ${debs[*]}"
deb="${debs[0]}"
echo "package: $(basename "$deb")"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = flashmark ] || fail "Package: $(field Package)"
read -r _ version revision < <("$BUILD/flashmark" --version | head -1 | tr -d '()' | sed 's/ git / /')
case "$(field Version)" in
  "$version+git"*".$revision-1") echo "ok: Version $(field Version)" ;;
  *) fail "Version $(field Version) is not $version+gitN.$revision-1" ;;
esac
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
[ -n "$(field Description)" ] || fail "no Description"
depends="$(field Depends)"
depends_names="$(sed 's/ ([^)]*)//g; s/, /\n/g' <<<"$depends")"
for library in liburing2 libaio1 libsqlite3-0 libblkid1 libxxhash0 libfmt9 libcpp-httplib0.11 zlib1g libstdc++6 libc6; do
  grep -qxF "$library" <<<"$depends_names" || fail "Depends lacks $library: $depends"
  dpkg-query -W -f='${Status}' "$library" 2>/dev/null | grep -q "ok installed" ||
    fail "$library (a dependency) is not installed here"
done
echo "ok: Depends $depends"

files="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for path in ./usr/bin/flashmark ./usr/share/man/man1/flashmark.1.gz \
  ./usr/share/man/man1/flashmark-run.1.gz ./usr/share/man/man1/flashmark-import-fio.1.gz \
  ./usr/share/bash-completion/completions/flashmark \
  ./usr/share/zsh/vendor-completions/_flashmark \
  ./usr/share/flashmark/examples/quick.toml ./usr/share/doc/flashmark/copyright \
  ./usr/share/doc/flashmark/changelog.Debian.gz; do
  grep -qxF "$path" <<<"$files" || fail "the package lacks $path"
done
echo "ok: $(wc -l <<<"$files") paths, with the program, man pages, completions, examples"

if command -v lintian >/dev/null; then
  lintian --suppress-tags initial-upload-closes-no-bugs "$deb" >"$work/lintian.log" 2>&1 ||
    fail "lintian: $(cat "$work/lintian.log")"
  if grep -E '^[EW]: ' "$work/lintian.log"; then fail "lintian found the above"; fi
  echo "ok: lintian (errors and warnings) clean"
else
  echo "skip: lintian is not installed (scripts/setup.sh installs it)"
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "skip: installing the package needs root (dpkg --root)"
  exit 0
fi
root="$work/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
# The scratch root has no packages: its dependencies were checked above
# against this machine's.
dpkg --root="$root" --force-depends -i "$deb" >"$work/dpkg.log" 2>&1 ||
  fail "dpkg -i: $(cat "$work/dpkg.log")"
dpkg --root="$root" -s flashmark | grep -q "Status: install ok installed" ||
  fail "dpkg does not list flashmark as installed in $root"
fm="$root/usr/bin/flashmark"
cd "$work"
"$fm" --version | head -1 | grep -qF "flashmark $version (git $revision)" ||
  fail "installed --version: $("$fm" --version)"
"$fm" run --engine null --time 1s --quiet --db "$work/runs.db" >/dev/null ||
  fail "installed null run"
"$fm" report 1 --db "$work/runs.db" --html "$work/r.html" >/dev/null &&
  grep -q "<html" "$work/r.html" || fail "installed report"
dpkg --root="$root" -r flashmark >/dev/null 2>&1 || fail "dpkg -r"
[ ! -e "$fm" ] || fail "dpkg -r left $fm"
echo "ok: installed with dpkg, ran a null run and a report, removed"
echo "install.deb: ok"
