import { describe, expect, it } from 'vitest';
import { fieldLabel, statusesText } from './field-labels.ts';

describe('fieldLabel', () => {
  it('names the fields the dashboard knows, and any other by its own name', () => {
    expect(fieldLabel('id')).toBe('Payment ID');
    expect(fieldLabel('merchant_category')).toBe('merchant_category');
  });

  it('takes a field named like an object key by its own name, never a function of Object', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(fieldLabel(id)).toBe(id);
  });
});

describe('statusesText', () => {
  it('lists the statuses chosen, or says all for none', () => {
    expect(statusesText([])).toBe('All statuses');
    expect(statusesText(['AWAITING', 'FAILED'])).toBe('AWAITING, FAILED');
  });
});
