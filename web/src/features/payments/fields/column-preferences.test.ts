import { describe, expect, it } from 'vitest';
import { isColumnVisible, loadColumnVisibility, saveColumnVisibility } from './column-preferences.ts';

describe('column preferences', () => {
  it('survive a save and a later load', () => {
    saveColumnVisibility({ reference: false, fee: true }, localStorage);
    expect(loadColumnVisibility(localStorage)).toEqual({ reference: false, fee: true });
  });

  it('ignore a stored value of the wrong shape', () => {
    localStorage.setItem('payments-dashboard.columns.v1', '{"reference":"yes"}');
    expect(loadColumnVisibility(localStorage)).toEqual({});
    localStorage.setItem('payments-dashboard.columns.v1', 'not json');
    expect(loadColumnVisibility(localStorage)).toEqual({});
  });

  it('show known columns and hide discovered ones unless the user chose otherwise', () => {
    expect(isColumnVisible({}, 'amount', true)).toBe(true);
    expect(isColumnVisible({}, 'fee', false)).toBe(false);
    // fields named like Object.prototype members are columns like any other, hidden until turned on
    expect(isColumnVisible({}, 'constructor', false)).toBe(false);
    expect(isColumnVisible({}, 'toString', false)).toBe(false);
    expect(isColumnVisible({ constructor: true }, 'constructor', false)).toBe(true);
    expect(isColumnVisible({ fee: true, amount: false }, 'fee', false)).toBe(true);
    expect(isColumnVisible({ fee: true, amount: false }, 'amount', true)).toBe(false);
  });
});
