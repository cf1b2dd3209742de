import { appConfigSchema, paymentPageSchema, sessionSchema } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { appConfigAnswer, paymentPageAnswer, sessionAnswer } from './bff-answers.ts';

const config = {
  environment: 'sandbox',
  time_zone: 'Europe/Paris',
  own_company_id: 'acme',
  companies: [
    { id: 'acme', name: 'Acme', parent_id: null },
    { id: 'acme-fr', name: 'Acme France', parent_id: 'acme' },
  ],
  statuses: ['COMPLETED', 'FAILED'],
  limits: { min: 1, max: 100, default: 50 },
  page_sizes: [25, 50, 100],
};

const page = {
  data: [
    { id: 'pay_1', amount: 1200, currency: 'EUR', surprise: { nested: true } },
    { id: 42, status: 'NEW_STATUS' },
  ],
  next_cursor: 'c1.abc',
  has_more: true,
};

/**
 * The browser's checks are lighter than the shared schemas the BFF applies, never stricter: whatever the BFF
 * may send passes both, and what the screens could not show is refused by both.
 */
describe('checks of BFF answers', () => {
  it('accept what the shared schemas accept', () => {
    expect(appConfigSchema.safeParse(config).success).toBe(true);
    expect(appConfigAnswer(config)).toBeNull();
    expect(paymentPageSchema.safeParse(page).success).toBe(true);
    expect(paymentPageAnswer(page)).toBeNull();
    const last = { data: [], next_cursor: null, has_more: false };
    expect(paymentPageAnswer(last)).toBeNull();
    const session = { username: 'demo', expires_at: '2026-11-22T12:00:00Z' };
    expect(sessionSchema.safeParse(session).success).toBe(true);
    expect(sessionAnswer(session)).toBeNull();
  });

  it.each([
    ['has_more=true without a cursor', { ...page, next_cursor: null }],
    ['has_more=false with a cursor', { ...page, has_more: false }],
    ['an empty cursor', { ...page, next_cursor: '' }],
    ['data that is not a list', { ...page, data: {} }],
    ['a record without id', { ...page, data: [{ amount: 1 }] }],
    ['a record with an empty id', { ...page, data: [{ id: '' }] }],
    ['a record that is a string', { ...page, data: ['pay_1'] }],
    ['no envelope', [page]],
  ])('refuse a page with %s, as the shared schema does', (_, body) => {
    expect(paymentPageSchema.safeParse(body).success).toBe(false);
    expect(paymentPageAnswer(body)).toEqual(expect.any(String));
  });

  it.each([
    ['an unknown environment', { ...config, environment: 'moon' }],
    ['no time zone', { ...config, time_zone: undefined }],
    ['a company without a name', { ...config, companies: [{ id: 'acme', parent_id: null }] }],
    ['page sizes as text', { ...config, page_sizes: ['25'] }],
    ['limits missing', { ...config, limits: undefined }],
    ['null', null],
  ])('refuse a config with %s, naming the field', (_, body) => {
    expect(appConfigSchema.safeParse(body).success).toBe(false);
    expect(appConfigAnswer(body)).toEqual(expect.any(String));
  });

  it('refuses a session without a user', () => {
    expect(sessionAnswer({ expires_at: 'x' })).toBe('username is missing or malformed');
    expect(sessionAnswer('demo')).toBe('not an object');
  });
});
