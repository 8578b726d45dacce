import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { RegisterSchema } from '@core/schemas.js';
import { loadConfigOrExit } from './config.js';
import { openCommandDatabase } from './db/backup-target.js';
import { connect } from './db/client.js';
import { t } from './i18n.js';
import { createAdmin } from './modules/auth/bootstrap-admin.js';
import { passwordProblem } from './modules/auth/password-policy.js';
import { findProfileByEmail } from './modules/auth/repo.js';
import { TokenService } from './modules/auth/tokens.js';
import { resetSecondFactor } from './modules/auth/service.js';
import { resolveSessionSecret } from './session-secret.js';

// `npm run admin -- <command>`: what an operator does on the server's machine when no admin can
// sign in. Passwords never go through the logger: a chosen one is read from stdin, a generated
// one is printed once, here, on the terminal.

const USAGE = `Usage:
  npm run admin -- create-admin --email EMAIL [--name "FULL NAME"] [--password-stdin]
      Creates an admin. With --password-stdin the password is read from stdin (one line);
      without it one is generated and shown once. The admin sets up two-step sign-in at the
      first sign-in.
  npm run admin -- reset-mfa --email EMAIL
      Resets an account's two-step sign-in (a lost phone) and ends its sessions; a staff member
      sets it up again at the next sign-in.`;

class UsageError extends Error {}

/** The first line of stdin, as `printf '%s' "$PASSWORD" | npm run admin -- …` or a file sends it. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin reads a piped password (it would be shown as typed here); leave it out to have one generated.');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

/** The value if the shared schema accepts it, else the process stops with the schema's message. */
function checked<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } }, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${what}: ${t('en', parsed.error.issues[0]?.message ?? 'errors.badInput')}`);
  return parsed.data;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const command = positionals[0];
  if (values.help) return console.log(USAGE);
  if (positionals.length !== 1 || !['create-admin', 'reset-mfa'].includes(command!)) throw new UsageError(USAGE);
  const email = checked(RegisterSchema.shape.email, values.email ?? '', 'E-mail');

  let password = '';
  if (command === 'create-admin') {
    password = values['password-stdin'] ? await passwordFromStdin() : randomBytes(18).toString('base64url');
    checked(RegisterSchema.shape.password, password, 'Password');
    const problem = passwordProblem(password, email);
    if (problem) throw new UsageError(`Password: ${t('en', problem === 'common' ? 'auth.errors.passwordCommon' : 'auth.errors.passwordContainsEmailName')}`);
  }
  const fullName = checked(RegisterSchema.shape.full_name, values.name ?? 'Administrator', 'Name');

  const config = loadConfigOrExit();
  const target = await openCommandDatabase(config);
  const database = connect(target.url, 2);
  try {
    if (command === 'create-admin') {
      if (!(await createAdmin(database.db, email, password, fullName))) throw new Error(`an account with the address ${email} already exists`);
      console.log(`Admin created: ${email}. Two-step sign-in is set up at the first sign-in.`);
      if (!values['password-stdin']) console.log(`Password (shown only now, keep it in a password manager): ${password}`);
    } else {
      const profile = await findProfileByEmail(database.db, email);
      const tokens = new TokenService(database.db, resolveSessionSecret(config));
      const ended = profile ? await resetSecondFactor({ db: database.db, tokens }, null, profile.id) : null;
      if (!profile || ended === null) throw new Error(`no account has the address ${email}`);
      console.log(`Two-step sign-in reset for ${email} (${profile.role}); ${ended} session(s) ended.`);
    }
  } finally {
    await database.close();
    await target.release();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof UsageError ? err.message : `Failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
});
