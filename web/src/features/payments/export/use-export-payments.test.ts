import { describe, expect, it } from 'vitest';
import { exportingText } from './use-export-payments.ts';

describe('exportingText', () => {
  it('says rows "of N" when N is known, the N a workbook will hold, and bytes alone otherwise', () => {
    expect(exportingText(1_200, 2048, 18_787)).toBe('Exporting… 1,200 of 18,787 rows, 2.0 KB');
    expect(exportingText(1, 10, null)).toBe('Exporting… 1 row, 10 B');
    expect(exportingText(null, 2048, 18_787)).toBe('Exporting 18,787 rows… 2.0 KB');
    expect(exportingText(null, 2048, null)).toBe('Exporting… 2.0 KB');
  });
});
