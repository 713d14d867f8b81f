/** Node child processes run to their end in tests: the CLI, or a server that is expected to refuse to start. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed, when it is JSON (`--json` commands). */
  json: any;
}

/**
 * Runs `node <args>` in `cwd` with exactly `env` and resolves when it has exited and closed its output. `track`
 * receives the child at once, so a test's cleanup can kill it if the test ends first.
 */
export function runNode(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; track?: (child: ChildProcess) => void }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    o.track?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
