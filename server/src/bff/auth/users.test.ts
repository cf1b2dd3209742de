import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Company } from '@payments/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST_TEST_COST } from '../testing/test-costs.ts';
import { hashPassword, parsePasswordHash, verifyPassword } from './password.ts';
import {
  type AuthUser,
  allowedCompanyIds,
  canonicalUsername,
  createDemoUser,
  createUserStore,
  loadUsersFile,
  writeUser,
} from './users.ts';

let folder: string;
let hash: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'auth-users-'));
  hash = await hashPassword('a password for tests', { cost: FAST_TEST_COST });
});
afterEach(() => rm(folder, { recursive: true, force: true }));

async function fileWith(content: unknown): Promise<string> {
  const path = join(folder, 'users.json');
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const tree: Company[] = [
  { id: 'acme', name: 'Acme', parent_id: null },
  { id: 'acme-eu', name: 'Acme EU', parent_id: 'acme' },
  { id: 'acme-eu-de', name: 'Acme DE', parent_id: 'acme-eu' },
  { id: 'acme-us', name: 'Acme US', parent_id: 'acme' },
];

function user(companies: AuthUser['companies'], includeDescendants: boolean): AuthUser {
  return { username: 'ana', passwordHash: 'unused', companies, includeDescendants };
}

describe('users file', () => {
  it('loads a valid file into a store that finds users by username', async () => {
    const path = await fileWith({
      users: [
        { username: 'ana', password_hash: hash, companies: ['acme-eu'], include_descendants: true },
        { username: 'bo', password_hash: hash, companies: '*' },
      ],
    });
    const store = await loadUsersFile(path);
    expect(store.all().map((u) => u.username)).toEqual(['ana', 'bo']);
    expect(store.find('ana')).toEqual({
      username: 'ana',
      passwordHash: hash,
      companies: ['acme-eu'],
      includeDescendants: true,
    });
    expect(store.find('bo')?.companies).toBe('*');
    expect(store.find('bo')?.includeDescendants).toBe(false);
    expect(store.find('nobody')).toBeUndefined();
  });

  it('finds usernames case-insensitively, as they are stored in lower case', async () => {
    const store = createUserStore([{ ...user(['acme'], false), passwordHash: hash }]);
    expect(store.find('ANA')?.username).toBe('ana');
    expect(() => createUserStore([{ ...user('*', false), username: 'Ana' }])).toThrow(/not allowed/);
  });

  it('canonical usernames: valid ones as they are, others NFC-normalised and lower-cased', () => {
    expect(canonicalUsername('ana.smith@acme')).toBe('ana.smith@acme');
    expect(canonicalUsername('ANA')).toBe('ana');
    expect(canonicalUsername('Jose\u0301')).toBe('jos\u00e9');
  });

  it('reads a TOTP secret; with AUTH_REQUIRE_TOTP it refuses a file with a user without one, naming the user', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const path = await fileWith({
      users: [
        { username: 'ana', password_hash: hash, companies: '*', totp_secret: secret },
        { username: 'bo', password_hash: hash, companies: '*' },
      ],
    });
    const store = await loadUsersFile(path);
    expect(store.find('ana')?.totpSecret).toBe(secret);
    expect(store.find('bo')?.totpSecret).toBeUndefined();
    await expect(loadUsersFile(path, { requireTotp: true })).rejects.toThrow(
      /users\[1\]\.totp_secret: "bo" has none, and AUTH_REQUIRE_TOTP requires one \(pnpm user:add --totp\)/,
    );
    expect(await loadUsersFile(path, { requireTotp: false })).toBeDefined();
  });

  it('refuses an invalid file with one line naming the file and the problem', async () => {
    const entry = { username: 'ana', password_hash: hash, companies: ['acme'] };
    const cases: [unknown, RegExp][] = [
      ['{"users": [', /is not valid JSON/],
      [{ people: [] }, /users: /],
      [{ users: [] }, /has no users/],
      [{ users: [{ ...entry, username: 'Ana Smith' }] }, /users\[0\]\.username: must be/],
      [{ users: [{ ...entry, password_hash: 'plaintext' }] }, /users\[0\]\.password_hash: is not a valid/],
      [{ users: [entry, { ...entry, companies: [] }] }, /users\[1\]\.companies: must name at least one/],
      [{ users: [{ ...entry, companies: 'all' }] }, /users\[0\]\.companies: must be "\*" or/],
      [{ users: [{ ...entry, companies: ['bad id!'] }] }, /users\[0\]\.companies\[0\]: is not a company id/],
      [{ users: [{ ...entry, include_descendants: 'yes' }] }, /users\[0\]\.include_descendants: /],
      [{ users: [{ ...entry, extra: 1 }] }, /users\[0\]: .*extra/],
      [{ users: [entry, entry] }, /users\[1\]\.username: "ana" appears twice/],
      // V8 quotes the text around a syntax error: the hash and the newlines must not reach the message.
      [`{"users": [\n  ${JSON.stringify(entry)},\n  x\n]}`, /is not valid JSON \(Unexpected token 'x'\)$/],
      [{ users: [{ ...entry, 'line\nbreak': 1 }] }, /users\[0\]: .*line break/],
      [
        { users: [{ ...entry, totp_secret: 'not base32!' }] },
        /users\[0\]\.totp_secret: must be a base32 secret/,
      ],
      [
        { users: [{ ...entry, totp_secret: 'ABCDEFGH' }] },
        /users\[0\]\.totp_secret: must be a base32 secret/,
      ],
    ];
    for (const [content, problem] of cases) {
      const path = await fileWith(content);
      const error = await loadUsersFile(path).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message, JSON.stringify(content)).toMatch(problem);
      expect(error?.message).toContain(path);
      expect(error?.message).not.toContain('\n');
      expect(error?.message).not.toContain(hash.slice(-20));
    }
  });

  it('refuses a missing file, naming it', async () => {
    const path = join(folder, 'missing.json');
    await expect(loadUsersFile(path)).rejects.toThrow(`users file ${path}: does not exist`);
  });
});

describe('allowedCompanyIds', () => {
  it('gives exactly the listed companies without include_descendants', () => {
    expect([...allowedCompanyIds(user(['acme-eu', 'acme-us'], false), tree)].sort()).toEqual([
      'acme-eu',
      'acme-us',
    ]);
  });

  it('adds every descendant with include_descendants', () => {
    expect([...allowedCompanyIds(user(['acme-eu'], true), tree)].sort()).toEqual(['acme-eu', 'acme-eu-de']);
    expect(allowedCompanyIds(user(['acme'], true), tree).size).toBe(4);
  });

  it('gives every company in the tree for "*"', () => {
    expect([...allowedCompanyIds(user('*', false), tree)].sort()).toEqual(tree.map((c) => c.id).sort());
  });

  it('drops ids that are not in the tree', () => {
    expect([...allowedCompanyIds(user(['acme-us', 'gone'], false), tree)]).toEqual(['acme-us']);
    expect([...allowedCompanyIds(user(['gone'], true), tree)]).toEqual([]);
  });
});

describe('writeUser', () => {
  it('creates the file with mode 0600, then adds and replaces users by username, atomically', async () => {
    const path = join(folder, 'users.json');
    await writeUser(path, {
      username: 'ana',
      passwordHash: hash,
      companies: ['acme'],
      includeDescendants: true,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await writeUser(path, { username: 'bo', passwordHash: hash, companies: '*', includeDescendants: false });
    await writeUser(path, {
      username: 'ana',
      passwordHash: hash,
      companies: ['acme-us'],
      includeDescendants: false,
    });

    const store = await loadUsersFile(path);
    expect(store.all().map((u) => [u.username, u.companies])).toEqual([
      ['ana', ['acme-us']],
      ['bo', '*'],
    ]);
    expect(JSON.parse(await readFile(path, 'utf8')).users[0]).toEqual({
      username: 'ana',
      password_hash: hash,
      companies: ['acme-us'],
      include_descendants: false,
    });
    // No temporary file is left behind.
    expect(await readdir(folder)).toEqual(['users.json']);
  });

  it('refuses to overwrite an existing invalid file, leaving it as it was', async () => {
    const path = await fileWith('{"not": "users"}');
    await expect(
      writeUser(path, { username: 'ana', passwordHash: hash, companies: '*', includeDescendants: false }),
    ).rejects.toThrow(path);
    expect(await readFile(path, 'utf8')).toBe('{"not": "users"}');
  });

  it('refuses to write an invalid user', async () => {
    const path = join(folder, 'users.json');
    await expect(
      writeUser(path, { username: 'ana', passwordHash: 'plain', companies: '*', includeDescendants: false }),
    ).rejects.toThrow(/password_hash/);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('createDemoUser', () => {
  it('makes user "demo" with every company and a hash of the given password', async () => {
    const demo = await createDemoUser('demo', { cost: FAST_TEST_COST });
    expect(demo).toMatchObject({ username: 'demo', companies: '*' });
    expect(parsePasswordHash(demo.passwordHash)).not.toBeNull();
    expect(await verifyPassword('demo', demo.passwordHash)).toBe(true);
    expect(await verifyPassword('other', demo.passwordHash)).toBe(false);
  });
});
