import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Child processes of the bench (the server under test, ceiling servers). Every one is tracked so
 * that a crash or Ctrl-C of the bench still stops them: nothing may outlive `npm run bench`.
 */
const running = new Set<ChildProcess>();
/** Temp folders and databases to remove even when the bench is interrupted. */
const cleanups = new Set<() => Promise<void> | void>();

function killAll(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Registers a clean-up that also runs on Ctrl-C or the watchdog; returns its unregister. */
export function registerCleanup(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

let aborting = false;

/** True once Ctrl-C or the watchdog started `abort`: the run's results are not to be reported. */
export function isAborting(): boolean {
  return aborting;
}

/** Stops every child, runs the pending clean-ups (at most 15 s), then exits with `code`. */
export async function abort(code: number): Promise<never> {
  aborting = true;
  killAll();
  const pending = [...cleanups].map(async (fn) => {
    try {
      await fn();
    } catch (error) {
      console.error(`bench: clean-up failed: ${(error as Error).message}`);
    }
  });
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
  process.exit(code);
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void abort(130));
}

export interface ServerChild {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Everything the child wrote, for diagnosing a crash. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `node <args>` and waits until a line of its stdout matches `portPattern` (first group =
 * the port it listens on). Rejects when the child exits first or `timeoutMs` passes.
 */
export async function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  portPattern: RegExp,
  timeoutMs = 60_000,
): Promise<ServerChild> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let log = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${args.join(' ')} did not start within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = portPattern.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child ${args.join(' ')} exited (${code ?? signal}) before listening:\n${log}`));
    });
  });
  return {
    child,
    pid: child.pid!,
    port,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux; clock ticks of
 * 10 ms). Per request, it is the figure least disturbed by other load on a shared machine.
 */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** A process's resident set now and its peak so far (kB), from /proc (Linux). */
export function memoryOf(pid: number): { rssKb: number; peakKb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Samples a process's memory every `everyMs` until stopped; returns the highest figures seen. */
export function sampleMemory(pid: number, everyMs = 250) {
  let peakKb = 0;
  let maxRssKb = 0;
  const take = () => {
    const memory = memoryOf(pid);
    if (!memory) return;
    peakKb = Math.max(peakKb, memory.peakKb);
    maxRssKb = Math.max(maxRssKb, memory.rssKb);
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop(): { peakKb: number; maxRssKb: number } {
      take();
      clearInterval(timer);
      return { peakKb, maxRssKb };
    },
  };
}
