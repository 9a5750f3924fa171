#!/usr/bin/env zsh
# zsh_complete.zsh FPATH_DIR LINE: prints, one per line, what zsh's own
# completion system (compinit, with _flashmark from FPATH_DIR) offers when
# TAB is pressed after LINE in an interactive shell (run in a zpty).
# compadd is wrapped to print each match it is given.
zmodload zsh/zpty || exit 3
zpty shell zsh -f -i
zpty -w shell "PROMPT= RPROMPT= ; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w shell "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w shell 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a found
  builtin compadd -A found "$@"
  local match; for match in $found; do print -r -- "MA""TCH:$match"; done
}'
zpty -w shell "bindkey '^I' complete-word"
zpty -w shell "$2"$'\t'
zpty -w shell $'\C-u'"print DONE-COMPLETING"
local line
while zpty -r shell line; do
  [[ $line == DONE-COMPLETING* ]] && break
  [[ $line == *MATCH:* ]] && print -r -- "${${line#*MATCH:}%%$'\r'*}"
done
zpty -d shell
