import { describe, expect, it } from 'vitest';
import { currencyOptions } from './currency-options.ts';

describe('the currencies offered', () => {
  it('are the common ones and those seen or chosen, once each, sorted, codes only', () => {
    const options = currencyOptions(['BRL', 'EUR', 'eur', 42, null], ['HUF'], new Set(['ZAR']));
    expect(options).toContain('BRL');
    expect(options).toContain('HUF');
    expect(options).toContain('ZAR');
    expect(options).toContain('USD');
    expect(options).not.toContain('eur');
    expect(options.filter((code) => code === 'EUR')).toHaveLength(1);
    expect(options).toEqual([...options].sort());
  });
});
