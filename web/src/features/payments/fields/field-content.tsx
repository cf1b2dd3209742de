import type { AmountUnit, Payment } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { jsonText, type ShownValue, shownAmount, shownDateTime, shownText } from './shown-values.ts';

/** What reading a payment's fields depends on, from the config. */
export interface ValueContext {
  /** The zone times are shown in: the one the user chose (the company's by default). */
  timeZone: string;
  /** The zone the upstream's zone-less times are meant in: the company's (PAYMENTS_TIME_ZONE). */
  sourceZone: string;
  amountUnit: AmountUnit;
}

const known = new Set<string>(KNOWN_PAYMENT_FIELDS);

export function isKnownField(field: string): boolean {
  return known.has(field);
}

function shown({ text, asSent }: ShownValue): ReactNode {
  return asSent ? (
    <span className="as-sent" title="shown as sent">
      {text}
    </span>
  ) : (
    text
  );
}

/** A field as text, read where its shape is recognised (see shown-values.ts). */
function shownField(field: string, payment: Payment, context: ValueContext): ShownValue {
  const value = payment[field];
  switch (field) {
    case 'id':
      return { text: String(payment.id), asSent: false };
    case 'amount':
      return shownAmount(value, payment.currency, context.amountUnit);
    case 'created_at':
      return shownDateTime(value, context.timeZone, context.sourceZone);
    default:
      return known.has(field) ? shownText(value) : { text: jsonText(value), asSent: false };
  }
}

/**
 * What the table and the drawer show for one field: known fields read where their shape is recognised and shown
 * as sent otherwise, any other field as text. Whatever the type of a value, this returns something to show.
 */
export function fieldContent(field: string, payment: Payment, context: ValueContext): ReactNode {
  return fieldCell(field, payment, context).content;
}

/** A field as a table's cell draws it, with the full text its tooltip says where a narrow column cuts it. */
export function fieldCell(
  field: string,
  payment: Payment,
  context: ValueContext,
): { content: ReactNode; title: string | undefined } {
  const value = payment[field];
  // the badge has its own title
  if (field === 'status' && typeof value === 'string')
    return { content: <StatusBadge status={value} />, title: undefined };
  const text = shownField(field, payment, context);
  return { content: shown(text), title: text.text || undefined };
}
