# SPDX-License-Identifier: MPL-2.0
# bash completion for contingency-cli, installed as
# share/bash-completion/completions/contingency-cli. The commands and options come from the
# program's own --help texts, so they cannot drift from what it accepts.

_contingency_cli()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} cmd="" i word
    COMPREPLY=()

    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word != -* ]]; then
            cmd=$word
            break
        fi
    done

    if [[ -z $cmd ]]; then
        # "  validate [--quiet] FILE...  summary": the first word of each line under "commands:".
        local commands
        commands=$("$prog" --help 2>/dev/null |
            sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    # The values of --format (diff's, and any other command's): text or json.
    if [[ ${COMP_WORDS[COMP_CWORD - 1]} == --format ]]; then
        COMPREPLY=($(compgen -W "text json" -- "$cur"))
        return
    fi
    if [[ $cur == -* && $cur != - ]]; then
        # The options in brackets of "usage: contingency-cli CMD [--opt] ...", and --help.
        local options
        options=$("$prog" "$cmd" --help 2>/dev/null | sed -n '1s/^usage: //p' |
            grep -o -- '--[a-z][a-z-]*')
        COMPREPLY=($(compgen -W "$options --help" -- "$cur"))
        return
    fi
    # File operands: bash-completion's _filedir when it is loaded, else plain file names.
    if declare -F _filedir >/dev/null; then
        _filedir
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _contingency_cli contingency-cli
