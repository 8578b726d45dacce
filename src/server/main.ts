import { loadConfigOrExit } from './config.js';
import { mailStartupLine } from './modules/mail/outbox-access.js';
import { startServer } from './start.js';

async function main() {
  const config = loadConfigOrExit();
  const server = await startServer(config);
  console.log(`\n  Money transfer service is running at ${config.publicUrl} (listening on ${server.address}, Node ${process.versions.node})`);
  if (server.admin.created) {
    console.log(`  Bootstrap admin: ${server.admin.email}${server.admin.generated ? ` / password: ${server.admin.password}` : ' (password from ADMIN_PASSWORD)'}`);
    if (server.admin.generated) console.log('  Keep this password: it is shown only on this first start.');
  }
  console.log(`  ${mailStartupLine(config)}`);
  console.log('');

  // Serving without its database helps nobody: one line, and a non-zero exit a supervisor restarts.
  void server.fatal.then((reason) => {
    console.error(`Stopping: ${reason}.`);
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    try {
      await server.close();
      process.exit(0);
    } catch (err) {
      server.app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(`Failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
