import { describe, expect, it } from 'vitest';
import { type CursorPayload, createCursorCodec } from './cursor-codec.ts';

const payload: CursorPayload = {
  createdAt: '2026-01-02T03:04:05',
  id: 'pay_000000000042',
  companyId: 'acme-eu',
  status: 'COMPLETED',
  dateFrom: null,
};

describe('cursor tokens', () => {
  it('decode returns exactly what encode was given', () => {
    const codec = createCursorCodec('secret');
    expect(codec.decode(codec.encode(payload))).toEqual({ ok: true, payload });
  });

  it('tokens are base64url only, within the shared cursor pattern', () => {
    const token = createCursorCodec('secret').encode(payload);
    expect(token).toMatch(/^[A-Za-z0-9_-]{1,2048}$/);
  });

  it('a token from another secret is refused', () => {
    expect(createCursorCodec('other').decode(createCursorCodec('secret').encode(payload))).toEqual({
      ok: false,
    });
  });

  it('changing any single character of a token makes it invalid', () => {
    const codec = createCursorCodec('secret');
    const token = codec.encode(payload);
    for (let i = 0; i < token.length; i++) {
      const changed = `${token.slice(0, i)}${token[i] === 'x' ? 'y' : 'x'}${token.slice(i + 1)}`;
      expect(codec.decode(changed).ok, `position ${i}`).toBe(false);
    }
  });

  it('a re-signed payload with a changed binding still decodes, so the route, not the codec, checks binding', () => {
    const codec = createCursorCodec('secret');
    const other = codec.decode(codec.encode({ ...payload, companyId: 'acme' }));
    expect(other).toEqual({ ok: true, payload: { ...payload, companyId: 'acme' } });
  });

  it('two instances without a secret do not accept each other’s tokens', () => {
    expect(createCursorCodec().decode(createCursorCodec().encode(payload)).ok).toBe(false);
  });
});
