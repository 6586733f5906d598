import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A throw-away PostgreSQL cluster of our own (initdb into a temp folder, its own port and socket
 * folder), for tests that stop, kill or restart the database under a running server — which the
 * shared one on 5432 must never be. initdb refuses to run as root, so as root every command runs as
 * the `postgres` user, which then owns the folder.
 */
export class PrivatePostgres {
  private constructor(
    readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  /** The binaries of the newest installed PostgreSQL, or undefined when none is installed. */
  static binaries(): string | undefined {
    const root = '/usr/lib/postgresql';
    if (!existsSync(root)) return undefined;
    const versions = readdirSync(root)
      .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
  }

  static async create(): Promise<PrivatePostgres> {
    const bin = PrivatePostgres.binaries();
    if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
    const dir = mkdtempSync(path.join(tmpdir(), 'kairos-pg-'));
    const cluster = new PrivatePostgres(bin, dir, await freePort());
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await cluster.pgCommand('initdb', ['-D', cluster.dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    await cluster.start();
    await cluster.admin('CREATE DATABASE kairos');
    return cluster;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** Over TCP, as the server under test connects. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/kairos`;
  }

  /** pg_ctl start, waiting until the cluster accepts connections. */
  async start(): Promise<void> {
    await this.pgCommand('pg_ctl', [
      'start',
      '-w',
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
    ]);
  }

  /** pg_ctl stop -m immediate: every backend ends at once, as in a crash (recovery on next start). */
  async stopImmediate(): Promise<void> {
    await this.pgCommand('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', this.dataDir]);
  }

  /** pg_terminate_backend on every other session of the `kairos` database; returns how many. */
  async terminateBackends(): Promise<number> {
    const rows = await this.admin(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = 'kairos' AND pid <> pg_backend_pid()`,
    );
    return rows.filter((row) => row.ok).length;
  }

  async destroy(): Promise<void> {
    await this.pgCommand('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', this.dataDir]).catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** One statement on the maintenance database, through the socket folder. */
  async admin(text: string): Promise<Record<string, unknown>[]> {
    const client = new pg.Client({ host: this.dir, port: this.port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  }

  private async pgCommand(name: string, args: string[]): Promise<void> {
    const command = path.join(this.bin, name);
    if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
    else await run(command, args);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
