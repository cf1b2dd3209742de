import { readFile } from 'node:fs/promises';
import { type Company, companyTreeSchema } from '@payments/shared';
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
