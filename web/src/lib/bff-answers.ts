import type { AppConfig, PaymentPage, Session } from '@payments/shared';
import { ENVIRONMENTS, pageEnvelopeProblem } from '@payments/shared/rules';

/**
 * Checks of the BFF's answers at the browser's edge, without a schema library: the BFF has already validated
 * the upstream's data against the shared zod schemas, and zod would be the largest part of the first view's
 * script (its schemas alone took ~40 ms to build at start-up). What the screens rely on is checked here, so a
 * wrong answer (a proxy's HTML page, a different version of the BFF) ends as a clear error, never a broken screen.
 *
 * Each check answers why the body is not what was expected, or `null` when it is.
 */
export type AnswerCheck<T> = ((body: unknown) => string | null) & { readonly type?: T };

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isInteger(value);

function firstMissing(body: Fields, wanted: Record<string, (value: unknown) => boolean>): string | null {
  for (const [name, ok] of Object.entries(wanted))
    if (!ok(body[name])) return `${name} is missing or malformed`;
  return null;
}

/** One page of payments: the envelope with both rules, and records that have an id (rows are keyed by it). */
export const paymentPageAnswer: AnswerCheck<PaymentPage> = (body) => {
  const envelope = pageEnvelopeProblem(body);
  if (envelope !== null) return envelope;
  const records = (body as { data: unknown[] }).data;
  for (const [index, record] of records.entries()) {
    if (!isFields(record)) return `data[${index}] is not a record`;
    const id = record.id;
    if (!((isString(id) && id !== '') || (typeof id === 'number' && Number.isFinite(id))))
      return `data[${index}].id is missing or malformed`;
  }
  return null;
};

export const sessionAnswer: AnswerCheck<Session> = (body) =>
  isFields(body) ? firstMissing(body, { username: isString, expires_at: isString }) : 'not an object';

function isCompany(value: unknown): boolean {
  return (
    isFields(value) &&
    isString(value.id) &&
    isString(value.name) &&
    (value.parent_id === null || isString(value.parent_id))
  );
}

export const appConfigAnswer: AnswerCheck<AppConfig> = (body) =>
  isFields(body)
    ? firstMissing(body, {
        environment: (value) => (ENVIRONMENTS as readonly unknown[]).includes(value),
        time_zone: isString,
        own_company_id: isString,
        companies: (value) => Array.isArray(value) && value.every(isCompany),
        statuses: (value) => Array.isArray(value) && value.every(isString),
        limits: (value) =>
          isFields(value) && isInteger(value.min) && isInteger(value.max) && isInteger(value.default),
        page_sizes: (value) => Array.isArray(value) && value.every(isInteger),
      })
    : 'not an object';
