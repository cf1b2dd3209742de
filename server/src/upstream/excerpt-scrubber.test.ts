import { describe, expect, it } from 'vitest';
import { createExcerptScrubber } from './excerpt-scrubber.ts';

const password = `it's a "secret" & <pass>/ü!~(x)+1`;
const basic = Buffer.from(`client-id-1234:${password}`).toString('base64');
const scrub = createExcerptScrubber([password, basic, 'client-id-1234', 'abc'], 300);

/** Ways an upstream may echo a value back: as encoders of several languages write it. */
const spellings: Record<string, (value: string) => string> = {
  'as sent': (v) => v,
  'JSON.stringify': (v) => JSON.stringify(v),
  'JSON with \\/': (v) => JSON.stringify(v).replaceAll('/', '\\/'),
  'Go encoding/json (\\u0026 \\u003c \\u003e)': (v) =>
    JSON.stringify(v).replaceAll('&', '\\u0026').replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'),
  'ASCII-only JSON (\\u00fc)': (v) =>
    JSON.stringify(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  encodeURIComponent: (v) => encodeURIComponent(v),
  'form encoding (URLSearchParams)': (v) => new URLSearchParams({ v }).toString().slice(2),
  'lower-case percent hex': (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  'percent-encoded JSON': (v) => encodeURIComponent(JSON.stringify({ v })),
};

describe('excerpt scrubber', () => {
  it('cuts out a secret echoed as sent, keeping the rest of the excerpt', () => {
    expect(scrub(`denied for ${password} (id client-id-1234)`)).toBe('denied for [redacted] (id [redacted])');
  });

  it.each(Object.entries(spellings))('never lets a secret through spelled %s', (_, spell) => {
    for (const secret of [password, basic]) {
      const out = scrub(`bad request: {"echo": ${spell(secret)}}`);
      expect(out).not.toContain(spell(secret));
      expect(out).not.toContain(secret);
    }
  });

  it('leaves a body without secrets alone, bounded and without control characters', () => {
    expect(scrub('{"error":"cursor expired"}\n\tsee docs')).toBe('{"error":"cursor expired"} see docs');
    expect(scrub('x'.repeat(1_000))).toHaveLength(300);
  });

  it('does not look for secrets under 4 characters, which would match ordinary text', () => {
    expect(scrub('abc def')).toBe('abc def');
  });

  it('copes with bad escapes and bad percent sequences', () => {
    expect(scrub('100% \\x \\u12 %zz')).toBe('100% \\x \\u12 %zz');
  });
});
