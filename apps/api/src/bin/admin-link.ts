// npm run admin-link -- <email>: prints a one-time admin sign-in link (valid 5 minutes) for the given account.
import { bootstrap, createLogger } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { createAdminLink } from '../modules/auth/auth.service.js';

const email = process.argv[2];
if (!email) {
  process.stderr.write('Usage: npm run admin-link -- <email>\n');
  process.exit(2);
}
const config = loadConfig();
const { deps, database } = await bootstrap(config, createLogger({ ...config, logLevel: 'warn' }), { seed: false });
try {
  const url = await createAdminLink(deps, email);
  process.stdout.write(`${url}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
