import type { Random } from './seeded-random.ts';
import { cumulativeWeights, pickWeighted } from './seeded-random.ts';

/**
 * Free text the sandbox puts into payments. Some entries are hostile on purpose: commas, quotes, newlines,
 * spreadsheet formula prefixes (`=`, `+`, `-`, `@`) and non-Latin scripts, so that exports and tables are
 * tested against them with no extra setup.
 */
export const DESCRIPTIONS: readonly string[] = [
  'Monthly subscription',
  'Invoice settlement',
  'Consulting services, March',
  'Refund for order 10452',
  'Office supplies',
  'Cloud hosting',
  'Travel expenses, Q2',
  'Hardware lease',
  'Freight and customs',
  'Marketing campaign "Spring"',
  'Payment for "Project Atlas", phase 2',
  'Line one\nline two of the note',
  'Tab\tseparated\tnote',
  '=HYPERLINK("http://example.invalid","click")',
  '=1+2',
  '+31 20 555 0100 callback',
  '-5% early payment discount',
  '@supplier please confirm',
  'Café crème & croissants — Zürich',
  'Überweisung für Büromöbel',
  'Facture n° 2024/118 — TVA incluse',
  '東京オフィス賃料',
  'Оплата по договору № 17',
  'رسوم الخدمة',
  'Team offsite 🎉',
  'Quote: "as agreed", see attachment',
  'Semi;colon;separated',
  'Trailing space ',
  "O'Brien & Sons reimbursement",
  'Backslash \\ path C:\\temp',
];

export const COUNTERPARTIES: readonly string[] = [
  'Initech GmbH',
  'Umbrella Ltd',
  'Stark Industries',
  'Wayne Enterprises',
  'Wonka Industries',
  'Tyrell Corp.',
  'Cyberdyne Systems',
  'Soylent, Inc.',
  'Hooli',
  'Pied Piper',
  'Vandelay Industries',
  'Kramerica "K" Industries',
  'Müller & Söhne KG',
  'Société Générale d’Exemple',
  'Łódź Logistics Sp. z o.o.',
  '株式会社サンプル',
  'Ελληνική Εταιρεία ΑΕ',
  'Nordisk Ørsted ApS',
  'São Paulo Comércio Ltda.',
  '=Evil Formula Corp',
];

const CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY'] as const;
/** Largest amount per currency, in minor units; JPY has no minor unit, so its amounts are whole yen. */
const MAX_AMOUNT: Record<(typeof CURRENCIES)[number], number> = {
  EUR: 5_000_000,
  USD: 5_000_000,
  GBP: 4_000_000,
  JPY: 8_000_000,
};
const CURRENCY_CUMULATIVE = cumulativeWeights([50, 25, 15, 10]);

/** Seeded statuses, most payments complete. Only these four exist in the sandbox. */
const SEEDED_STATUSES = ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'] as const;
const STATUS_CUMULATIVE = cumulativeWeights([70, 15, 10, 5]);

/** The varying columns of one payment, in the order the insert statement binds them. */
export interface DrawnPayment {
  status: string;
  amount: number;
  currency: string;
  /** 1-based row of DESCRIPTIONS, or null for a payment without description. */
  descriptionId: number | null;
  counterpartyId: number | null;
  referenceNo: number | null;
}

export function drawPayment(random: Random): DrawnPayment {
  const status = SEEDED_STATUSES[pickWeighted(random, STATUS_CUMULATIVE)] as string;
  const currency = CURRENCIES[pickWeighted(random, CURRENCY_CUMULATIVE)] as (typeof CURRENCIES)[number];
  // Log-uniform: many small payments, a few large ones, as in real ledgers.
  const amount = Math.max(1, Math.floor(Math.exp(random() * Math.log(MAX_AMOUNT[currency]))));
  const descriptionId = random() < 0.05 ? null : 1 + Math.floor(random() * DESCRIPTIONS.length);
  const counterpartyId = random() < 0.02 ? null : 1 + Math.floor(random() * COUNTERPARTIES.length);
  const referenceNo = random() < 0.1 ? null : Math.floor(random() * 10_000_000);
  return { status, amount, currency, descriptionId, counterpartyId, referenceNo };
}
