import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../bff/auth/password.ts';
import { loadUsersFile } from '../bff/auth/users.ts';

const SCRIPT = fileURLToPath(new URL('./user-add.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runUserAdd(args: string[], stdin: string, env: Record<string, string> = {}): Promise<Run> {
  const { AUTH_USERS_FILE, USER_ADD_PASSWORD, INIT_CWD, ...inherited } = process.env;
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...inherited, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'user-add-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('pnpm user:add', () => {
  it('writes a user from a piped password: the file loads and its hash verifies; nothing secret is printed', async () => {
    const file = join(folder, 'users.json');
    const password = 'a sufficiently long password';
    const run = await runUserAdd(
      ['--', '--file', file, '--username', 'Ana', '--companies', 'acme-eu,acme-us', '--include-descendants'],
      `${password}\n`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Wrote user "ana" to ${file}\n`);

    const user = (await loadUsersFile(file)).find('ana');
    expect(user).toMatchObject({
      username: 'ana',
      companies: ['acme-eu', 'acme-us'],
      includeDescendants: true,
    });
    expect(await verifyPassword(password, user?.passwordHash ?? '')).toBe(true);
    expect(user?.passwordHash.startsWith('scrypt$32768$8$1$')).toBe(true);
    const output = run.stdout + run.stderr;
    expect(output).not.toContain(password);
    expect(output).not.toContain(user?.passwordHash);
  });

  it('takes USER_ADD_PASSWORD, grants every company with --all, and resolves a relative path against INIT_CWD', async () => {
    const run = await runUserAdd(['--username', 'bo', '--all', '--file', 'relative.json'], '', {
      USER_ADD_PASSWORD: 'another long password',
      INIT_CWD: folder,
    });
    expect(run.code).toBe(0);
    const user = (await loadUsersFile(join(folder, 'relative.json'))).find('bo');
    expect(user?.companies).toBe('*');
    expect(await verifyPassword('another long password', user?.passwordHash ?? '')).toBe(true);
    expect(JSON.parse(await readFile(join(folder, 'relative.json'), 'utf8')).users).toHaveLength(1);
  });

  it('--totp gives a new sign-in code secret, shown as an otpauth:// URI and a QR code; re-adding keeps it, --no-totp removes it', async () => {
    const file = join(folder, 'users.json');
    const password = 'a sufficiently long password';
    const run = await runUserAdd(['--file', file, '--username', 'tina', '--all', '--totp'], `${password}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const secret = (await loadUsersFile(file)).find('tina')?.totpSecret ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(run.stdout).toContain(
      `otpauth://totp/Payments:tina?secret=${secret}&issuer=Payments&algorithm=SHA1&digits=6&period=30`,
    );
    // The QR code: rows of half blocks, as wide as they are many (two modules a line).
    const rows = run.stdout.split('\n').filter((line) => /^[█▀▄ ]{20,}$/.test(line));
    expect(rows.length).toBeGreaterThan(10);
    expect(run.stdout).not.toContain(password);

    const again = await runUserAdd(
      ['--file', file, '--username', 'tina', '--all'],
      'another long password\n',
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Wrote user "tina" to ${file}\n`);
    expect((await loadUsersFile(file)).find('tina')?.totpSecret).toBe(secret);

    const without = await runUserAdd(
      ['--file', file, '--username', 'tina', '--all', '--no-totp'],
      `${password}\n`,
    );
    expect(without.code).toBe(0);
    expect((await loadUsersFile(file)).find('tina')?.totpSecret).toBeUndefined();
  });

  it('refuses a password shorter than 12 characters and bad arguments, writing nothing', async () => {
    const file = join(folder, 'users.json');
    const short = await runUserAdd(['--file', file, '--username', 'ana', '--all'], 'short pw\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 12 characters/);
    expect(short.stderr).not.toContain('short pw');

    const both = await runUserAdd(
      ['--file', file, '--username', 'ana', '--all', '--companies', 'a'],
      'x'.repeat(12),
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/exactly one of --companies/);

    const unknown = await runUserAdd(
      ['--file', file, '--username', 'ana', '--all', '--admin'],
      'x'.repeat(12),
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/--admin/);
    expect(await readdir(folder)).toEqual([]);
  });
});
