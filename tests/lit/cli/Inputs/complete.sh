#!/bin/bash
# Loads a bash completion script and prints, one per line, what completing the last of WORDS
# offers, as bash would on <TAB> after typing them.
#   complete.sh SCRIPT WORD...
set -eu
source "$1"
shift
complete -p hoist
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
_hoist hoist "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
