import { spawn } from 'node:child_process';
import { builtCli } from './built-cli.ts';
import { childEnv } from './child-env.ts';
import { ROOT } from './paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `deskgate ARGS` as a child process, the way a user does (the command as the package ships it). */
export async function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const deskgate = await builtCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [deskgate, ...args], {
      cwd: ROOT,
      env: childEnv({ DESKGATE_LOG_FORMAT: 'json', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
