import { readFile } from 'node:fs/promises';
import { type Company, companyTreeSchema } from '@payments/shared';
import { basicCredentials } from '../upstream/index.ts';
import { ConfigError } from './settings.ts';

function treeOrError(json: unknown, where: string): Company[] {
  const parsed = companyTreeSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`${where}: ${issue?.path.join('.') || 'tree'} ${issue?.message ?? 'is invalid'}`);
}

/** `PAYMENTS_COMPANIES_FILE`: the caller's own company (the single root) and its descendants. */
export async function loadCompaniesFile(path: string): Promise<Company[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    throw new ConfigError(`PAYMENTS_COMPANIES_FILE: ${path} ${reason}`);
  }
  return treeOrError(json, `PAYMENTS_COMPANIES_FILE: ${path}`);
}

/** The embedded sandbox's tree, from its `GET /_sandbox/companies` (the real API has no such endpoint). */
export async function fetchSandboxCompanies(
  baseUrl: string,
  credentials: { secretId: string; secretPassword: string },
): Promise<Company[]> {
  const url = new URL('/_sandbox/companies', baseUrl);
  const response = await fetch(url, { headers: { authorization: `Basic ${basicCredentials(credentials)}` } });
  if (!response.ok) throw new ConfigError(`sandbox: ${url.pathname} answered ${response.status}`);
  return treeOrError(await response.json(), `sandbox: ${url.pathname}`);
}
