#!/usr/bin/env bash
# ctest install.prefix: installs flashmark into a temporary prefix
# (cmake --install BUILD --prefix P) and uses the installed program from
# another directory with a bare environment, as a user would: --version, a
# null run, an HTML report, an example campaign's dry run. Then checks the
# manual: a page for every command, rendered by man(1) without a warning,
# naming every option that command's --help lists; and the completions:
# bash completes `flashmark ru<TAB>`, `run --engine <TAB>` (the engines
# `--version` lists), `export 1 --format <TAB>` and run ids from the
# database on the command line; zsh reads its script without an error.
#   tests/install/install_test.sh BUILD
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BUILD="$(cd "$1" && pwd)"
work="$(mktemp -d /tmp/flashmark-install.XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

prefix="$work/prefix"
cmake --install "$BUILD" --prefix "$prefix" >/dev/null
fm="$prefix/bin/flashmark"
[ -x "$fm" ] || fail "no $fm after cmake --install"
mkdir "$work/elsewhere"
cd "$work/elsewhere"
# Nothing from the build or source tree: a bare environment.
bare() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work" "$@"; }

version="$(bare "$fm" --version)"
grep -q "^flashmark [0-9.]* (git [0-9a-f]*)" <<<"$version" ||
  fail "--version's first line: $version"
for key in build engines features; do
  grep -q "^$key: " <<<"$version" || fail "--version has no $key line: $version"
done
bare "$fm" --version --json | grep -q '"schema": "flashmark.version"' ||
  fail "--version --json is not the flashmark.version document"

db="$work/runs.db"
bare "$fm" run --engine null --time 1s --quiet --db "$db" >run.out ||
  fail "installed null run: $(cat run.out)"
bare "$fm" report 1 --db "$db" --html report.html >/dev/null ||
  fail "installed report"
grep -q "<html" report.html || fail "report.html is not a page"
grep -q "echarts" report.html || fail "report.html has no charts library"
examples="$prefix/share/flashmark/examples"
[ -f "$examples/quick.toml" ] || fail "no examples in $examples"
bare "$fm" sweep "$examples/quick.toml" --dry-run --db "$db" >dry.out ||
  fail "dry run of the installed quick.toml: $(cat dry.out)"
grep -q "cell" dry.out || fail "the dry run lists no cells: $(cat dry.out)"

# With the source and build trees out of sight (root: a private mount
# namespace with an empty tmpfs over the source tree, which holds BUILD).
SOURCE="$(cd "$HERE/../.." && pwd)"
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  unshare -m bash -euc '
    mount --make-rprivate /
    mount -t tmpfs flashmark-hidden "$1"
    [ ! -e "$1/CMakeLists.txt" ]
    cd "$2"
    "$3" run --engine null --time 1s --quiet --db "$2/hidden.db" >/dev/null
    "$3" report 1 --db "$2/hidden.db" --html "$2/hidden.html" >/dev/null
    grep -q "<html" "$2/hidden.html"' hide "$SOURCE" "$work" "$fm" ||
    fail "the installed program needs the source tree"
  echo "ok: ran and reported with $SOURCE hidden"
else
  echo "skip: hiding the source tree needs root and mount namespaces"
fi

# --- manual pages -------------------------------------------------------
subcommands() {  # the Subcommands section of `flashmark [CMD] --help`
  bare "$fm" "$@" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF {print $1}'
}
commands=("")
for command in $(subcommands); do
  commands+=("$command")
  for sub in $(subcommands "$command"); do commands+=("$command $sub"); done
done
[ ${#commands[@]} -ge 15 ] || fail "only ${#commands[@]} commands in --help"
man1="$prefix/share/man/man1"
for command in "${commands[@]}"; do
  name="flashmark${command:+-${command// /-}}"
  page="$man1/$name.1.gz"
  [ -f "$page" ] || fail "no manual page $page for \`flashmark $command\`"
  text="$(LANG=C.UTF-8 MANWIDTH=200 man --warnings -l "$page" 2>"$work/warnings")"
  [ ! -s "$work/warnings" ] || fail "man warns on $name: $(cat "$work/warnings")"
  grep -q "^NAME" <<<"$text" || fail "$name has no NAME section"
  # shellcheck disable=SC2086
  options="$(bare "$fm" $command --help |
    grep -oE '^  +(-[a-zA-Z],)?--[a-z0-9_-]+(,--[a-z0-9_-]+)*' | tr ',' '\n' | tr -d ' ')"
  [ -n "$options" ] || fail "no options parsed from flashmark $command --help"
  for option in $options; do
    grep -qE -- "(^|[ ,])$option([ ,]|$)" <<<"$text" ||
      fail "$name does not document $option (flashmark $command --help has it)"
  done
  count=$(wc -w <<<"$options")
  echo "ok: $name.1 documents all $count options"
done
grep -q "EXAMPLES" <(LANG=C.UTF-8 man -l "$man1/flashmark-run.1.gz") ||
  fail "flashmark-run(1) has no EXAMPLES"

# --- completion ---------------------------------------------------------
bash_completion="$prefix/share/bash-completion/completions/flashmark"
[ -f "$bash_completion" ] || fail "no $bash_completion"
complete_words() {  # WORD...: the last one is being completed
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
    _flashmark
    printf "%s\n" "${COMPREPLY[@]}"' completion "$bash_completion" "$@" | sort | xargs
}
expect() {  # EXPECTED WORD...
  local expected="$1"; shift
  local got; got="$(complete_words "$@")"
  [ "$got" = "$expected" ] || fail "completing [$*]: got \"$got\", expected \"$expected\""
  echo "ok: [$*] -> $got"
}
expect "run" "$fm" ru
engines="$(sed -n 's/^engines: //p' <<<"$version" | tr ' ' '\n' | sort | xargs)"
expect "$engines" "$fm" run --engine ""
expect "$engines" "$fm" run --ioengine ""
expect "clat_hist csv hdr json" "$fm" export 1 --format ""
expect "--direct" "$fm" run --dir
expect "blktrace fio fio-iolog flashmark sysbench" "$fm" import ""
bare "$fm" run --engine null --time 1s --quiet --db "$db" >/dev/null
expect "1 2" "$fm" show --db "$db" ""
expect "1 2" "$fm" compare --db = "$db" 1 ""  # how bash splits --db=PATH
expect "" "$fm" show --db "$work/none.db" ""
[ ! -e "$work/none.db" ] || fail "completing run ids created $work/none.db"

zsh_completion="$prefix/share/zsh/vendor-completions/_flashmark"
[ -f "$zsh_completion" ] || fail "no $zsh_completion"
if command -v zsh >/dev/null; then
  zsh -n "$zsh_completion" || fail "zsh cannot read $zsh_completion"
  zsh_expect() {  # EXPECTED LINE
    local got
    got="$(PATH="$prefix/bin:$PATH" timeout 30 zsh "$HERE/zsh_complete.zsh" \
      "$(dirname "$zsh_completion")" "$2" | sort -u | tr '\n' ' ' | sed 's/ $//')"
    [ "$got" = "$1" ] || fail "zsh completing [$2]: got \"$got\", expected \"$1\""
    echo "ok: zsh [$2] -> $got"
  }
  zsh_expect "run" "flashmark ru"
  zsh_expect "$engines" "flashmark run --engine "
  zsh_expect "--direct" "flashmark run --dir"
  zsh_expect "compressible: random zero" "flashmark run --data "
  zsh_expect "blktrace fio fio-iolog flashmark sysbench" "flashmark import "
  zsh_expect "1 2" "flashmark show --db $db "
  zsh_expect "1 2" "flashmark compare --db=$db 1 "
else
  echo "skip: zsh is not installed (scripts/setup.sh installs it)"
fi
echo "install.prefix: ok"
