import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// A throwaway PostgreSQL cluster for one test run (OBSCURA_TEST_DATABASE=postgres): initdb into a temp
// directory as a non-root user, listening on 127.0.0.1 and a private socket directory only, no fsync.

export interface Cluster {
  dir: string;
  port: number;
  /** URL of a database of this cluster, as the superuser `obscura` (trust authentication on loopback only). */
  url(database: string): string;
  /** Creates the empty database `name`; returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

/** The newest installed server binaries: Debian's /usr/lib/postgresql/N/bin, else `pg_config --bindir`. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  const bindir = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (bindir.status === 0 && fs.existsSync(path.join(bindir.stdout.trim(), 'initdb'))) return bindir.stdout.trim();
  throw new Error('PostgreSQL server binaries not found (install Debian package postgresql: /usr/lib/postgresql/*/bin/initdb)');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** initdb and postgres refuse to run as root: as root, they run as Debian's `postgres` account. */
function asClusterUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

function run(command: string, args: string[]): void {
  const [file, argv] = asClusterUser(command, args);
  execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `durable`: fsync and synchronous commit left on (benchmarks compare with SQLite's synchronous=FULL). */
export async function startCluster(settings: { durable?: boolean } = {}): Promise<Cluster> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-pg-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sockets');
  fs.mkdirSync(sockets);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
    fs.chownSync(sockets, uid, gid);
  }
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'obscura', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${sockets}'`,
    ...(settings.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=400',
    '-c shared_buffers=64MB',
  ].join(' ');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
  const url = (database: string) => `postgres://obscura@127.0.0.1:${port}/${database}`;
  return {
    dir,
    port,
    url,
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
