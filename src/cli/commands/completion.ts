import { type Command, UsageError } from '../command.ts';
import { COMMANDS } from './index.ts';

const COMMON_OPTIONS = ['--database', '--help'];
const SHELL_NAMES = ['bash', 'zsh'];

/** One `case` branch per command and group: what may follow the words typed so far. */
function bashCases(): string[] {
  const groups = new Map<string, string[]>();
  const cases: string[] = [`    "completion") candidates="${SHELL_NAMES.join(' ')}" ;;`];
  for (const command of COMMANDS) {
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
  const top = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
  cases.push(`    "") candidates="${top.join(' ')} --help --version" ;;`);
  return cases;
}

function bashScript(): string {
  return `# deskgate completion for bash: eval "$(deskgate completion bash)" in ~/.bashrc
_deskgate() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local typed="\${COMP_WORDS[*]:1:COMP_CWORD-1}"
  local candidates=""
  case "$typed" in
${bashCases().join('\n')}
  esac
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -o default -F _deskgate deskgate
`;
}

const SHELLS: Record<string, () => string> = {
  bash: bashScript,
  // zsh runs the bash function through its bash compatibility layer.
  zsh: () =>
    `# deskgate completion for zsh: eval "$(deskgate completion zsh)" in ~/.zshrc\nautoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n${bashScript()}`,
};

export const completion: Command = {
  name: 'completion',
  usage: 'deskgate completion bash|zsh',
  summary: 'Print a shell completion script (eval "$(deskgate completion bash)" in ~/.bashrc).',
  options: {},
  positionals: 1,
  async run(input) {
    const shell = input.positionals[0] ?? '';
    const script = SHELLS[shell];
    if (!script) throw new UsageError(`completion: unknown shell "${shell}"; use bash or zsh`);
    input.out(script());
  },
};
