import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, currencyExponent, majorAmount } from './money.ts';

/** ISO 4217 minor units, written out here so the tests do not ask Intl what the code under test asks it. */
const ISO_EXPONENTS = { EUR: 2, USD: 2, JPY: 0, KRW: 0, ISK: 0, BHD: 3, KWD: 3, HUF: 2, IDR: 2, IQD: 3 };
const currencies = fc.constantFrom(...(Object.keys(ISO_EXPONENTS) as (keyof typeof ISO_EXPONENTS)[]));

/** `units` × 10^-scale by division and remainder, a different route from the code's padding and slicing. */
function referenceText(units: bigint, scale: number): string {
  const base = 10n ** BigInt(scale);
  const abs = units < 0n ? -units : units;
  const text = scale === 0 ? `${abs}` : `${abs / base}.${`${abs % base}`.padStart(scale, '0')}`;
  return units < 0n ? `-${text}` : text;
}

const decimals = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat({ max: 8 }))
  .map(([units, scale]) => ({ units, scale, text: referenceText(units, scale) }));

describe('currencyExponent', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['BHD', 3],
    ['KWD', 3],
  ])('gives %s its ISO 4217 minor-unit digits, %i', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it.each([
    ['HUF', 2],
    ['IDR', 2],
    ['COP', 2],
    ['IQD', 3],
  ])('gives %s the ISO digits (%i) where the engine would show CLDR display digits', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it.each<[unknown, string]>([
    ['XYZ', 'a well-formed code no currency has'],
    ['eur', 'lower case'],
    ['EURO', 'four letters'],
    ['EU', 'two letters'],
    [' EUR', 'a space'],
    ['', 'empty'],
    [978, 'the numeric code'],
    [null, 'null'],
    [undefined, 'undefined'],
  ])('is null for %j (%s)', (currency) => {
    expect(currencyExponent(currency)).toBeNull();
  });
});

describe('majorAmount of a safe integer', () => {
  it.each([
    [10435, 'EUR', '104.35'],
    [109389, 'JPY', '109389'],
    [1234, 'BHD', '1.234'],
    [-5, 'EUR', '-0.05'],
    [-1234, 'BHD', '-1.234'],
    [0, 'EUR', '0.00'],
    [-0, 'EUR', '0.00'],
    [0, 'JPY', '0'],
    [7, 'BHD', '0.007'],
    [Number.MAX_SAFE_INTEGER, 'EUR', '90071992547409.91'],
    [Number.MIN_SAFE_INTEGER, 'EUR', '-90071992547409.91'],
  ])('reads %j %s in minor units as %s', (amount, currency, expected) => {
    expect(majorAmount(amount, currency, 'minor')).toBe(expected);
  });

  it.each([
    [10435, 'XYZ'],
    [10435, 'eur'],
    [10435, null],
    [10435, undefined],
  ])('refuses minor units %j in %j, whose digits are unknown', (amount, currency) => {
    expect(majorAmount(amount, currency, 'minor')).toBeNull();
  });

  it.each([
    [1234, 'EUR', '1234.00'],
    [1234, 'JPY', '1234'],
    [1234, 'BHD', '1234.000'],
    [-7, 'EUR', '-7.00'],
    [0, 'EUR', '0.00'],
    [-0, 'EUR', '0.00'],
    [1234, 'XYZ', '1234'],
    [1234, undefined, '1234'],
  ])('reads %j %s in major units as %s', (amount, currency, expected) => {
    expect(majorAmount(amount, currency, 'major')).toBe(expected);
  });

  it('equals a division by 10^digits done in BigInt, for every safe integer and currency', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), currencies, (minor, currency) => {
        expect(majorAmount(minor, currency, 'minor')).toBe(
          referenceText(BigInt(minor), ISO_EXPONENTS[currency]),
        );
      }),
    );
  });
});

describe('majorAmount of a number with a fraction', () => {
  it.each([
    [1234.5, 'EUR', '1234.50'],
    [0.125, 'EUR', '0.125'],
    [-0.5, 'EUR', '-0.50'],
    [1.5, 'JPY', '1.5'],
    [0.1, 'BHD', '0.100'],
    [1234.5, 'XYZ', '1234.5'],
    [0.000001, 'EUR', '0.000001'],
  ])('reads %j %s as major units %s, in either unit', (amount, currency, expected) => {
    expect(majorAmount(amount, currency, 'major')).toBe(expected);
    expect(majorAmount(amount, currency, 'minor')).toBe(expected);
  });

  it.each([
    [1e-7, 'a text with an exponent'],
    [-2.5e-8, 'a negative text with an exponent'],
    [1e21, 'an integer beyond safe range'],
    [2 ** 53, 'the first unsafe integer'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('refuses %j (%s)', (amount) => {
    expect(majorAmount(amount, 'EUR', 'major')).toBeNull();
    expect(majorAmount(amount, 'EUR', 'minor')).toBeNull();
  });

  it('keeps every digit of the shortest text: the result reads back as the same number', () => {
    const fractional = fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((n) => !Number.isInteger(n) && !String(n).includes('e'));
    fc.assert(
      fc.property(fractional, currencies, (amount, currency) => {
        const result = majorAmount(amount, currency, 'minor');
        expect(result).not.toBeNull();
        expect(Number(result)).toBe(amount);
        expect(result?.startsWith(String(amount))).toBe(true);
        expect(result?.split('.')[1]?.length).toBeGreaterThanOrEqual(ISO_EXPONENTS[currency]);
      }),
    );
  });
});

describe('majorAmount of a string', () => {
  it.each([
    ['1234.50', 'EUR', '1234.50'],
    ['1234.5', 'EUR', '1234.50'],
    ['7', 'EUR', '7.00'],
    ['0.125', 'EUR', '0.125'],
    ['-12.3', 'EUR', '-12.30'],
    ['1.5', 'JPY', '1.5'],
    ['7', 'JPY', '7'],
    ['1.2', 'BHD', '1.200'],
    ['1.5', 'XYZ', '1.5'],
    ['7', null, '7'],
    ['-0', 'EUR', '0.00'],
    ['-0.00', 'EUR', '0.00'],
    ['-0.000', 'EUR', '0.000'],
    ['-0', 'XYZ', '0'],
    ['123456789012345678901234567890.123456789', 'EUR', '123456789012345678901234567890.123456789'],
  ])('reads %j %s as major units %s', (amount, currency, expected) => {
    expect(majorAmount(amount, currency, 'major')).toBe(expected);
  });

  it('reads a string as major units even when integers are minor', () => {
    expect(majorAmount('1234', 'EUR', 'minor')).toBe('1234.00');
  });

  it.each([' 1', '1 ', '+1', '1e3', '1,5', '1.', '.5', '01', '-', '', 'NaN', 'Infinity', '0x10', '١٢'])(
    'refuses %j',
    (amount) => {
      expect(majorAmount(amount, 'EUR', 'major')).toBeNull();
    },
  );

  it('keeps the text exactly, only adding zeros up to the currency digits', () => {
    fc.assert(
      fc.property(decimals, currencies, ({ units, scale, text }, currency) => {
        const result = majorAmount(text, currency, 'major') ?? '';
        const digits = Math.max(scale, ISO_EXPONENTS[currency]);
        expect(result).toBe(referenceText(units * 10n ** BigInt(digits - scale), digits));
      }),
    );
  });
});

describe('majorAmount of other types', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['undefined', undefined],
    ['an object', { value: 1 }],
    ['an array', [1]],
    ['a bigint', 10n],
  ])('refuses %s', (_type, amount) => {
    expect(majorAmount(amount, 'EUR', 'minor')).toBeNull();
    expect(majorAmount(amount, 'EUR', 'major')).toBeNull();
  });
});

describe('addDecimals', () => {
  it.each([
    ['0.1', '0.2', '0.3'],
    ['1.50', '2', '3.50'],
    ['1.5', '2.25', '3.75'],
    ['-1.2', '0.2', '-1.0'],
    ['0.1', '-0.1', '0.0'],
    ['-0.05', '0.05', '0.00'],
    ['-0', '0', '0'],
    ['+1', '-0.005', '0.995'],
    ['007', '1', '8'],
    ['999999999999999999999.99', '0.01', '1000000000000000000000.00'],
    ['-5', '-0.125', '-5.125'],
  ])('adds %s and %s exactly: %s', (a, b, sum) => {
    expect(addDecimals(a, b)).toBe(sum);
  });

  it.each(['1e3', '', ' 1', '1.', '.5', '1,5', '--1', 'NaN'])('throws on %j rather than guess', (bad) => {
    expect(() => addDecimals(bad, '1')).toThrow(RangeError);
    expect(() => addDecimals('1', bad)).toThrow(RangeError);
  });

  it('sums any list of decimals as a BigInt sum at the largest scale does', () => {
    fc.assert(
      fc.property(fc.array(decimals, { minLength: 1, maxLength: 20 }), (list) => {
        const scale = Math.max(...list.map((d) => d.scale));
        const units = list.reduce((sum, d) => sum + d.units * 10n ** BigInt(scale - d.scale), 0n);
        expect(list.map((d) => d.text).reduce(addDecimals)).toBe(referenceText(units, scale));
      }),
    );
  });

  it('is commutative and associative, to the last character', () => {
    fc.assert(
      fc.property(decimals, decimals, decimals, (a, b, c) => {
        expect(addDecimals(a.text, b.text)).toBe(addDecimals(b.text, a.text));
        expect(addDecimals(addDecimals(a.text, b.text), c.text)).toBe(
          addDecimals(a.text, addDecimals(b.text, c.text)),
        );
      }),
    );
  });
});

describe('compareDecimals', () => {
  it.each([
    ['120.50', '120.5', 0],
    ['120.49', '120.5', -1],
    ['-3', '-2.99', -1],
    ['100', '99.999', 1],
    ['0.00', '-0', 0],
    ['90071992547409930.01', '90071992547409930.001', 1],
  ])('%s against %s is %i, exactly', (a, b, expected) => {
    expect(Math.sign(compareDecimals(a, b))).toBe(expected);
  });
});
