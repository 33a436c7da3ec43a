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
    # The values of the options that take one of a few words.
    case ${COMP_WORDS[COMP_CWORD - 1]} in
    --from | --to)
        COMPREPLY=($(compgen -W "json csv jsonl" -- "$cur"))
        return
        ;;
    --to-version)
        COMPREPLY=($(compgen -W "1.0 1.1 1.2 1.3" -- "$cur"))
        return
        ;;
    --format | --report-format)
        COMPREPLY=($(compgen -W "text json" -- "$cur"))
        return
        ;;
    --target)
        COMPREPLY=($(compgen -W "powsybl dynaflow" -- "$cur"))
        return
        ;;
    --dedupe)
        COMPREPLY=($(compgen -W "first last" -- "$cur"))
        return
        ;;
    --delimiter)
        COMPREPLY=($(compgen -W ", ; tab" -- "$cur"))
        return
        ;;
    esac
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
