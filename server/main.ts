import { bootstrapFirstUser } from './bootstrap.ts';
import { parseServerConfig } from './config.ts';
import { SERVER_HELP, startFailure } from './cli-help.ts';
import { redactUrl } from './redis/connect.ts';
import { startServer } from './server.ts';

const argv = process.argv.slice(2).filter((arg) => arg !== '--');

if (argv.includes('--help') || argv.includes('-h')) {
  console.log(SERVER_HELP);
  process.exit(0);
}

let config;
try {
  config = parseServerConfig(argv, process.env);
} catch (err) {
  console.error(`shelf server: ${(err as Error).message}`);
  console.error('usage: npm run --silent server -- [--port 8787] [--host 127.0.0.1] [--data ./data] [--test-clock] [--allow-private-fetch] [--trust-proxy] [--trust-proxy-hops N] [--redis redis://HOST:PORT] [--database postgres://USER@HOST:PORT/DB] [--job-lease-ms 30000] [--no-link-check] [--link-check] [--link-check-pace-ms N] ...');
  process.exit(2);
}

let server;
try {
  server = await startServer(config);
} catch (err) {
  console.error(`shelf server: ${startFailure(err, config)}`);
  process.exit(1);
}
const first = await bootstrapFirstUser(server.deps);
if (first) {
  console.log(`First start: created a local Pro user (${first.userId}) and this API token with every scope.`);
  console.log('It is shown only this once; paste it into the extension\'s options page:');
  console.log(`  ${first.token}`);
  // The URL's password stays out of the log.
  const database = config.databaseUrl === null ? `--data ${config.dataDir}` : `--database ${redactUrl(config.databaseUrl)}`;
  console.log(`More tokens: ${adminCommand()} ${database} token create --user ${first.userId} --name NAME --scopes all`);
}
// Names this process in logs and in the job leases it holds, when several instances share a database.
console.log(`instance ${server.deps.instanceId}`);
console.log(`listening ${server.baseUrl}`);

/** The admin command of the same build: the production bundle's (a container image has no sources) or tsx's. */
function adminCommand(): string {
  return `npm run --silent ${import.meta.url.endsWith('.ts') ? 'admin' : 'serve:admin'} --`;
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('shelf server: shutdown failed:', err);
        process.exit(1);
      },
    );
  });
}
