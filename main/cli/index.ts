import { parseArgs } from 'node:util';
import { defaultDataDir, loadConfig, type ConfigInput } from '../config.js';
import { DatabaseTooNewError } from '../db/migrator.js';
import { systemClock } from '../services/context.js';
import { AlreadyInitialisedError, initialiseDataDir, writeCredentialsFile } from '../services/data-dir.js';
import { startInstance } from '../serve.js';
import { startWorker } from '../cluster/worker.js';

const USAGE = `Usage:
  obscura init  [--data-dir DIR] [--database-url postgres://…] [--json]
  obscura serve [--data-dir DIR] [--database-url postgres://…] [--host 127.0.0.1] [--port N] [--no-rate-limits] [--log-level info]
  obscura worker [--data-dir DIR] [--database-url postgres://…]   jobs, exports and background runners without HTTP, beside \`serve\`

Data directory default: ${defaultDataDir()} (or $OBSCURA_DATA_DIR).
Settings are read from DIR/config.json; flags override them.
Database: the SQLite file DIR/obscura.db, or PostgreSQL 15+ named by --database-url or $OBSCURA_DATABASE_URL
(or databaseUrl in config.json); blobs and config.json stay in DIR either way. --database-url never takes a
password (command lines are public): use $PGPASSWORD, ~/.pgpass, $OBSCURA_DATABASE_URL or config.json.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const exposed = passwordInDatabaseFlag(rest);
  if (exposed) {
    console.error(`obscura: ${exposed}`);
    return 2;
  }
  try {
    switch (command) {
      case 'init':
        return await init(rest);
      case 'serve':
        return await serve(rest);
      case 'worker':
        return await worker(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return command === undefined ? 1 : 0;
      default:
        console.error(`obscura: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof AlreadyInitialisedError || error instanceof DatabaseTooNewError) {
      console.error(`obscura: ${error.message}`);
      return 1;
    }
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`obscura: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`obscura: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function init(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const config = loadConfig(dataDir, { databaseUrl: values['database-url'] });
  const credentials = await initialiseDataDir(dataDir, systemClock, config.databaseUrl);
  const file = writeCredentialsFile(dataDir, credentials);
  if (values.json) {
    console.log(JSON.stringify(credentials));
  } else {
    console.log(`Initialised ${dataDir}\n  organization: ${credentials.organization_id}\n  admin user:   ${credentials.admin_username}\n  password:     ${credentials.admin_password}\n  API key:      ${credentials.api_key}\nThese are shown once; a copy readable only by you is in ${file}.`);
  }
  return 0;
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'no-rate-limits': { type: 'boolean', default: false },
      'log-level': { type: 'string' },
    },
    strict: true,
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const overrides: ConfigInput = {};
  if (values['database-url']) overrides.databaseUrl = values['database-url'];
  if (values.host) overrides.host = values.host;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0 to 65535, got ${values.port}`);
    overrides.port = port;
  }
  if (values['no-rate-limits']) overrides.rateLimits = { enabled: false };
  const instance = await startInstance({
    dataDir,
    overrides,
    ...(values['log-level'] && { logLevel: values['log-level'] }),
    onFirstRun: (credentials, file) => {
      console.log(`First run: initialised ${dataDir}`);
      console.log(`  admin user: ${credentials.admin_username}  password: ${credentials.admin_password}`);
      console.log(`  API key:    ${credentials.api_key}`);
      console.log(`  (shown once; a copy readable only by you is in ${file})`);
    },
  });
  // Handlers first: a supervisor may send SIGTERM the moment it reads the listening line.
  const stopped = stopOnSignal(() => instance.stop());
  console.log(`listening on ${instance.url}`);
  await stopped;
  return 0;
}

async function worker(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } }, strict: true });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  // As OBSCURA_DATABASE_URL: every config this process loads (the worker's own checks included) sees it.
  if (values['database-url']) process.env.OBSCURA_DATABASE_URL = values['database-url'];
  const running = await startWorker({ dataDir });
  // Background timers are unref'd (they must not hold a server open); with no HTTP socket this one keeps the worker alive.
  const keepAlive = setInterval(() => undefined, 3600_000);
  const stopped = stopOnSignal(() => running.stop());
  const owned = Object.entries(running.background.owned()).filter(([, yes]) => yes).map(([name]) => name);
  console.log(`worker running on ${dataDir} (pid ${process.pid}; owns: ${owned.join(', ') || 'no singleton runner yet'})`);
  await stopped;
  clearInterval(keepAlive);
  return 0;
}

/** On the first SIGTERM or SIGINT, runs `stop`; resolves once it has finished (an error is logged, not thrown). */
function stopOnSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const shutdown = () => {
      process.off('SIGTERM', shutdown);
      process.off('SIGINT', shutdown);
      stop().then(resolve, (error: unknown) => {
        console.error('obscura: error while stopping:', error);
        resolve();
      });
    };
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
  });
}

/**
 * A command line is readable by every local user (ps, /proc/<pid>/cmdline), so --database-url never carries a
 * password: refused before anything starts, without echoing it.
 */
function passwordInDatabaseFlag(args: readonly string[]): string | null {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const value = arg === '--database-url' ? args[index + 1] : arg.startsWith('--database-url=') ? arg.slice('--database-url='.length) : undefined;
    if (value === undefined) continue;
    let password = '';
    try {
      password = new URL(value).password;
    } catch {
      password = /^[^:/]+:\/\/[^/@]*:[^/@]*@/.test(value) ? 'x' : '';
    }
    if (password !== '') {
      return '--database-url must not hold a password: every local user can read a command line (ps). Name the database there without one and give the password in $PGPASSWORD or ~/.pgpass, or put the whole URL in $OBSCURA_DATABASE_URL or databaseUrl in config.json';
    }
  }
  return null;
}
