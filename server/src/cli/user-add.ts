// `pnpm user:add`: hashes a password and adds (or replaces) a user in the users file.
// An entry-point script, so it reads its own environment: AUTH_USERS_FILE, USER_ADD_PASSWORD, INIT_CWD.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { COMPANY_ID_PATTERN } from '@payments/shared';
import { renderUnicodeCompact } from 'uqr';
import { hashPassword } from '../bff/auth/password.ts';
import { newTotpSecret, otpauthUri } from '../bff/auth/totp.ts';
import {
  type AuthUser,
  canonicalUsername,
  loadUsersFile,
  USERNAME_PATTERN,
  writeUser,
} from '../bff/auth/users.ts';

const MIN_PASSWORD_LENGTH = 12;
const USAGE = `usage: pnpm user:add -- --username <name> (--companies <id,id,...> [--include-descendants] | --all)
                     [--totp | --no-totp] [--file <users.json>]   (default: AUTH_USERS_FILE, else ./users.json)
password: typed at the prompt; when stdin is not a terminal, USER_ADD_PASSWORD or the first line of stdin
--totp: a new sign-in code secret (TOTP), shown as a QR code for an authenticator app; --no-totp removes it;
        neither keeps the user's own`;

class UsageError extends Error {}

function readHiddenLine(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  let line = '';
  return new Promise((resolvePromise, reject) => {
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolvePromise(line);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') line = [...line].slice(0, -1).join('');
        else if (char >= ' ') line += char;
      }
    };
    input.on('data', onData);
  });
}

async function readPipedPassword(): Promise<string> {
  const fromEnv = process.env.USER_ADD_PASSWORD;
  if (fromEnv !== undefined) return fromEnv;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // The first line, so `echo secret | pnpm user:add …` works and the newline is not part of the password.
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readPipedPassword();
  const first = await readHiddenLine('Password: ');
  const second = await readHiddenLine('Repeat password: ');
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}

async function main(argv: string[]): Promise<void> {
  // `pnpm user:add -- --file …` hands the `--` through; parseArgs would treat everything after it as positional.
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  let values: ReturnType<typeof parse>['values'];
  function parse(list: string[]) {
    return parseArgs({
      args: list,
      strict: true,
      allowPositionals: false,
      options: {
        file: { type: 'string' },
        username: { type: 'string' },
        companies: { type: 'string' },
        'include-descendants': { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
        totp: { type: 'boolean' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowNegative: true,
    });
  }
  try {
    values = parse(args).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }

  if (values.username === undefined) throw new UsageError('--username is required');
  const username = canonicalUsername(values.username);
  if (!USERNAME_PATTERN.test(username))
    throw new UsageError(`--username must be 1–128 letters, digits or . _ @ + -, starting alphanumeric`);
  if (values.all === (values.companies !== undefined))
    throw new UsageError('give exactly one of --companies <ids> and --all');
  let companies: AuthUser['companies'] = '*';
  if (values.companies !== undefined) {
    companies = values.companies
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    const bad = companies.find((id) => !COMPANY_ID_PATTERN.test(id));
    if (companies.length === 0 || bad !== undefined)
      throw new UsageError(`--companies must list company ids separated by commas${bad ? `: "${bad}"` : ''}`);
  }

  // pnpm runs the script in server/ and says where it was invoked in INIT_CWD.
  const file = resolve(
    process.env.INIT_CWD || process.cwd(),
    values.file ?? process.env.AUTH_USERS_FILE ?? 'users.json',
  );

  const password = await readPassword();
  if (password.length === 0) throw new UsageError('the password is empty');
  if (username !== 'demo' && [...password].length < MIN_PASSWORD_LENGTH)
    throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);

  // A user added again keeps her code unless told otherwise: resetting a password must not drop it unseen.
  const totpSecret =
    values.totp === true
      ? newTotpSecret()
      : values.totp === false
        ? undefined
        : (await loadUsersFile(file).catch(() => undefined))?.find(username)?.totpSecret;
  await writeUser(file, {
    username,
    passwordHash: await hashPassword(password),
    companies,
    includeDescendants: values['include-descendants'],
    ...(totpSecret === undefined ? {} : { totpSecret }),
  });
  console.log(`Wrote user "${username}" to ${file}`);
  if (values.totp === true && totpSecret !== undefined) {
    const uri = otpauthUri(totpSecret, username);
    console.log(
      [
        '',
        `Sign-in code for "${username}": scan this with an authenticator app, or enter the secret by hand.`,
        '',
        renderUnicodeCompact(uri, { border: 2 }),
        '',
        uri,
        `secret: ${totpSecret.replace(/(.{4})(?=.)/g, '$1 ')}`,
      ].join('\n'),
    );
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(`user:add: ${(error as Error).message}`);
  if (error instanceof UsageError) console.error(USAGE);
  process.exitCode = 1;
}
