import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Company } from '@payments/shared';
import { companyIdSchema, subtreeIds } from '@payments/shared';
import { z } from 'zod';
import { hashPassword, parsePasswordHash, type ScryptCost } from './password.ts';
import { TOTP_SECRET_PATTERN } from './totp.ts';

export interface AuthUser {
  username: string;
  passwordHash: string;
  /** `'*'`: every company the upstream credentials reach. */
  companies: '*' | string[];
  includeDescendants: boolean;
  /** The user's TOTP secret (base32), when a code is asked for at sign-in (`pnpm user:add --totp`). */
  totpSecret?: string;
}

export interface UserStore {
  find(username: string): AuthUser | undefined;
  all(): readonly AuthUser[];
}

/**
 * Usernames are stored in lower case and sign-in input is folded to lower case before lookup, so "Ana" on a
 * phone keyboard signs in as "ana" and one person cannot hold two spellings with separate throttles.
 */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@+-]{0,127}$/;

export function canonicalUsername(input: string): string {
  // A valid username is lower-case ASCII, already canonical: the common case skips Unicode normalisation, which
  // every request paid for when its session's user was looked up.
  return USERNAME_PATTERN.test(input) ? input : input.normalize('NFC').toLowerCase();
}

const userEntrySchema = z.strictObject({
  username: z
    .string()
    .regex(USERNAME_PATTERN, 'must be 1–128 lower-case letters, digits or . _ @ + -, starting alphanumeric'),
  password_hash: z
    .string()
    .refine((value) => parsePasswordHash(value) !== null, 'is not a valid "scrypt$N$r$p$salt$hash" string'),
  companies: z.union([z.literal('*'), z.array(companyIdSchema).min(1, 'must name at least one company')], {
    error: 'must be "*" or a non-empty array of company ids',
  }),
  include_descendants: z.boolean().default(false),
  totp_secret: z
    .string()
    .regex(
      TOTP_SECRET_PATTERN,
      'must be a base32 secret of 16 to 128 characters A–Z, 2–7 (pnpm user:add --totp)',
    )
    .optional(),
});
type UserEntry = z.input<typeof userEntrySchema>;

/** What a users file must hold beyond its shape: with AUTH_REQUIRE_TOTP, a TOTP secret for every user. */
export interface UsersFileRules {
  requireTotp?: boolean;
}

const usersFileSchema = ({ requireTotp = false }: UsersFileRules) =>
  z.strictObject(
    {
      users: z.array(userEntrySchema, { error: 'must be an array of users' }).superRefine((users, ctx) => {
        const seen = new Set<string>();
        users.forEach((user, index) => {
          if (seen.has(user.username))
            ctx.addIssue({
              code: 'custom',
              path: [index, 'username'],
              message: `"${user.username}" appears twice`,
            });
          seen.add(user.username);
          if (requireTotp && user.totp_secret === undefined)
            ctx.addIssue({
              code: 'custom',
              path: [index, 'totp_secret'],
              message: `"${user.username}" has none, and AUTH_REQUIRE_TOTP requires one (pnpm user:add --totp)`,
            });
        });
      }),
    },
    { error: 'must be an object {"users": [...]}' },
  );

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'is invalid';
  const path = issue.path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  return oneLine(path === '' ? issue.message : `${path}: ${issue.message}`);
}

function fromEntry(entry: z.output<typeof userEntrySchema>): AuthUser {
  return {
    username: entry.username,
    passwordHash: entry.password_hash,
    companies: entry.companies === '*' ? '*' : [...entry.companies],
    includeDescendants: entry.include_descendants,
    ...(entry.totp_secret === undefined ? {} : { totpSecret: entry.totp_secret }),
  };
}

function toEntry(user: AuthUser): UserEntry {
  return {
    username: user.username,
    password_hash: user.passwordHash,
    companies: user.companies === '*' ? '*' : [...user.companies],
    include_descendants: user.includeDescendants,
    ...(user.totpSecret === undefined ? {} : { totp_secret: user.totpSecret }),
  };
}

/**
 * V8's JSON.parse message may quote a slice of the text: password hashes and newlines, which must not reach a
 * one-line log. Only the part before the quotation is kept ("Unexpected token 'x'", "… at position 7 …").
 */
function jsonSyntaxProblem(error: Error): string {
  return oneLine(error.message.replace(/,? *(?:\.\.\.)?".*$/s, '')) || 'syntax error';
}

/** Control characters (newlines above all) from a file's keys or values must not split a log line. */
function oneLine(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ').trim();
}

/** Reads and validates a users file; null when it does not exist. Errors name the file and the problem. */
async function readUsersFile(path: string, rules: UsersFileRules = {}): Promise<AuthUser[] | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new Error(`users file ${path}: cannot be read (${code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`users file ${path}: is not valid JSON (${jsonSyntaxProblem(error as Error)})`);
  }
  const parsed = usersFileSchema(rules).safeParse(json);
  if (!parsed.success) throw new Error(`users file ${path}: ${describeIssue(parsed.error)}`);
  return parsed.data.users.map(fromEntry);
}

export async function loadUsersFile(path: string, rules: UsersFileRules = {}): Promise<UserStore> {
  const users = await readUsersFile(path, rules);
  if (users === null) throw new Error(`users file ${path}: does not exist`);
  if (users.length === 0) throw new Error(`users file ${path}: has no users, so nobody could sign in`);
  return createUserStore(users);
}

/** A users file that is read again when it changes, and what became of each reading. */
export interface WatchedUserStore extends UserStore {
  close(): void;
}

/**
 * Loads a users file and reads it again whenever its folder changes (editors and deployment tools replace the
 * file rather than write into it, so the folder is watched, not the file), without a restart: a user removed or
 * a password changed takes effect within a second, and the sessions of either end at their next request. A file
 * that no longer reads (half written, invalid, empty) leaves the last good users in place and is reported.
 */
export async function watchUsersFile(
  path: string,
  report: (event: { ok: true; users: number } | { ok: false; problem: string }) => void,
  rules: UsersFileRules = {},
): Promise<WatchedUserStore> {
  let current = await loadUsersFile(path, rules);
  let timer: NodeJS.Timeout | undefined;
  const reload = async () => {
    try {
      current = await loadUsersFile(path, rules);
      report({ ok: true, users: current.all().length });
    } catch (error) {
      report({ ok: false, problem: (error as Error).message });
    }
  };
  const watcher = watch(dirname(path), { persistent: false }, () => {
    clearTimeout(timer);
    // Changes come in bursts (write, rename, chmod): read once they settle.
    timer = setTimeout(reload, 100);
  });
  return {
    find: (username) => current.find(username),
    all: () => current.all(),
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/** Lookup folds the input with canonicalUsername(); stored names are already canonical (lower case). */
export function createUserStore(users: AuthUser[]): UserStore {
  const byName = new Map<string, AuthUser>();
  for (const user of users) {
    if (!USERNAME_PATTERN.test(user.username)) throw new Error(`username "${user.username}" is not allowed`);
    if (byName.has(user.username)) throw new Error(`username "${user.username}" appears twice`);
    byName.set(user.username, user);
  }
  const all = Object.freeze([...byName.values()]);
  return {
    find: (username) => byName.get(canonicalUsername(username)),
    all: () => all,
  };
}

/** The sandbox's built-in user: "demo", every company. */
export async function createDemoUser(
  password: string,
  options: { cost?: ScryptCost } = {},
): Promise<AuthUser> {
  return {
    username: 'demo',
    passwordHash: await hashPassword(password, options),
    companies: '*',
    includeDescendants: true,
  };
}

/** The company ids a user may see, given the company tree the BFF knows (shared `Company[]`). */
export function allowedCompanyIds(user: AuthUser, companies: readonly Company[]): Set<string> {
  if (user.companies === '*') return new Set(companies.map((company) => company.id));
  const allowed = new Set<string>();
  for (const id of user.companies) {
    if (user.includeDescendants) {
      for (const descendant of subtreeIds(companies, id)) allowed.add(descendant);
    } else if (companies.some((company) => company.id === id)) {
      allowed.add(id);
    }
  }
  return allowed;
}

/**
 * Adds the user, or replaces the one with the same username, keeping the others in order. An existing file
 * must be valid (it is never overwritten blindly). The new content goes to a 0600 temporary file in the same
 * folder, is flushed, then renamed over the target, so readers see the old file or the new one, never half.
 */
export async function writeUser(path: string, user: AuthUser): Promise<void> {
  const entry = userEntrySchema.safeParse(toEntry(user));
  if (!entry.success) throw new Error(`user ${user.username}: ${describeIssue(entry.error)}`);
  const users = (await readUsersFile(path)) ?? [];
  const index = users.findIndex((existing) => existing.username === user.username);
  if (index === -1) users.push(fromEntry(entry.data));
  else users[index] = fromEntry(entry.data);
  const text = `${JSON.stringify({ users: users.map(toEntry) }, null, 2)}\n`;

  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
