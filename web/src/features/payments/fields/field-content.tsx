import type { AmountUnit, Payment } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { jsonText, type ShownValue, shownAmount, shownDateTime, shownText } from './shown-values.ts';

/** What reading a payment's fields depends on, from the config. */
export interface ValueContext {
  timeZone: string;
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

/** A field's content as plain text: the full text a cut cell says in its tooltip. */
export function fieldText(field: string, payment: Payment, context: ValueContext): string {
  const value = payment[field];
  switch (field) {
    case 'id':
      return String(payment.id);
    case 'amount':
      return shownAmount(value, payment.currency, context.amountUnit).text;
    case 'created_at':
      return shownDateTime(value, context.timeZone).text;
    default:
      return known.has(field) ? shownText(value).text : jsonText(value);
  }
}

/**
 * What the table and the drawer show for one field: known fields read where their shape is recognised and shown
 * as sent otherwise, any other field as text. Whatever the type of a value, this returns something to show.
 */
export function fieldContent(field: string, payment: Payment, context: ValueContext): ReactNode {
  const value = payment[field];
  switch (field) {
    case 'id':
      return String(payment.id);
    case 'amount':
      return shown(shownAmount(value, payment.currency, context.amountUnit));
    case 'created_at':
      return shown(shownDateTime(value, context.timeZone));
    case 'status':
      return typeof value === 'string' ? <StatusBadge status={value} /> : shown(shownText(value));
    default:
      return known.has(field) ? shown(shownText(value)) : jsonText(value);
  }
}
