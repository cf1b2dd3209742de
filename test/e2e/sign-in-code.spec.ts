import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { base32Decode, totpCode } from '@payments/server/totp';
import { expect, screenshot, test } from './fixtures.ts';
import { freePort, type OwnStack, startOwnStack } from './own-stack.ts';
import { stackEnv } from './stack.ts';

const USER_ADD = fileURLToPath(new URL('../../server/src/cli/user-add.ts', import.meta.url));
const TINA = { username: 'tina', password: 'tina-e2e-password' };

// A stack of its own, whose users file has a user with a sign-in code, added as an administrator would.
let own: OwnStack | undefined;
let folder = '';
let secret = '';
test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'e2e-totp-'));
  const users = join(folder, 'users.json');
  await promisify(execFile)(
    process.execPath,
    [USER_ADD, '--file', users, '--username', TINA.username, '--all', '--totp'],
    { env: { PATH: process.env.PATH ?? '', USER_ADD_PASSWORD: TINA.password } },
  );
  secret = (JSON.parse(await readFile(users, 'utf8')) as { users: { totp_secret: string }[] }).users[0]
    ?.totp_secret as string;
  own = await startOwnStack({
    ...stackEnv({ SANDBOX_SEED_COUNT: '3000' }),
    SANDBOX_PORT: String(await freePort()),
    AUTH_USERS_FILE: users,
  });
});
test.afterAll(async () => {
  await own?.stop();
  await rm(folder, { recursive: true, force: true });
});

test('a user with a sign-in code is asked for it after her password, all by keyboard, and a wrong one is said', async ({
  page,
}) => {
  const origin = own?.origin ?? '';
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('Username').focus();
  await page.keyboard.type(TINA.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(TINA.password);
  await page.keyboard.press('Enter');

  // The code is asked for: its field takes the focus, and the page says why (a status, not an error).
  const code = page.getByLabel('Code from your authenticator app');
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByRole('status')).toHaveText(/signs in with a code: enter the 6 digits/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await screenshot(page, 'sign-in-code');
  const axe = await new AxeBuilder({ page }).include('.sign-in').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);

  await page.keyboard.type('000000');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Wrong username, password or code.');
  await expect(code).toHaveValue('');

  await code.focus();
  await page.keyboard.type(totpCode(base32Decode(secret), Date.now()));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
});
