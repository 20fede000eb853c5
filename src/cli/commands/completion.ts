import { type Command, UsageError } from '../command.ts';
import { loadCommands } from './index.ts';

const COMMON_OPTIONS = ['--database', '--help'];
const SHELL_NAMES = ['bash', 'zsh'];

/** One `case` branch per command and group: what may follow the words typed so far. */
function bashCases(commands: readonly Command[]): string[] {
  const groups = new Map<string, string[]>();
  const cases: string[] = [`    "completion") candidates="${SHELL_NAMES.join(' ')}" ;;`];
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.length > 1) {
      const [group = '', sub = ''] = words;
      groups.set(group, [...(groups.get(group) ?? []), sub]);
    }
    const options = [...Object.keys(command.options).map((o) => `--${o}`), ...COMMON_OPTIONS];
    cases.push(`    "${command.name}"|"${command.name} "*) candidates="${options.join(' ')}" ;;`);
  }
  for (const [group, subs] of groups)
    cases.push(`    "${group}") candidates="${subs.join(' ')}" ;;`);
  const top = [...new Set(commands.map((c) => c.name.split(' ')[0]))];
  cases.push(`    "") candidates="${top.join(' ')} --help --version" ;;`);
  return cases;
}

/**
 * The bash function and its registration: for `deskgate …` (also as ./node_modules/.bin/deskgate,
 * bash falls back to the last path part) and for `npx deskgate …`, as the README runs it. After
 * `npx` alone it offers `deskgate`, and leaves any other package to bash's file names.
 */
function bashScript(commands: readonly Command[]): string {
  return `# deskgate completion for bash (deskgate … and npx deskgate …):
#   npx deskgate completion bash > ~/.deskgate-completion.bash, and in ~/.bashrc:
#   . ~/.deskgate-completion.bash
_deskgate() {
  local start=1
  if [ "\${COMP_WORDS[0]##*/}" = npx ]; then
    if [ "$COMP_CWORD" -eq 1 ]; then
      COMPREPLY=($(compgen -W deskgate -- "\${COMP_WORDS[1]}"))
      return
    fi
    COMPREPLY=()
    [ "\${COMP_WORDS[1]}" = deskgate ] || return
    start=2
  fi
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local typed="\${COMP_WORDS[*]:start:COMP_CWORD-start}"
  local candidates=""
  case "$typed" in
${bashCases(commands).join('\n')}
  esac
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -o default -F _deskgate deskgate npx
`;
}

const SHELLS: Record<string, (commands: readonly Command[]) => string> = {
  bash: bashScript,
  // zsh runs the bash function through its bash compatibility layer.
  zsh: (commands) =>
    `# deskgate completion for zsh: npx deskgate completion zsh > ~/.deskgate-completion.zsh, and in ~/.zshrc: . ~/.deskgate-completion.zsh\nautoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n${bashScript(commands)}`,
};

export const completion: Command = {
  name: 'completion',
  usage: 'deskgate completion bash|zsh',
  summary:
    'Print a shell completion script for deskgate and npx deskgate: save it to a file once ' +
    '(npx deskgate completion bash > ~/.deskgate-completion.bash) and source that file in ~/.bashrc.',
  options: {},
  positionals: 1,
  async run(input) {
    const shell = input.positionals[0] ?? '';
    const script = SHELLS[shell];
    if (!script) throw new UsageError(`completion: unknown shell "${shell}"; use bash or zsh`);
    input.out(script(await loadCommands()));
  },
};
