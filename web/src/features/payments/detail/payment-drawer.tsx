import type { Payment } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';
import { type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { fieldContent, isKnownField, type ValueContext } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN, fieldLabel } from '../fields/field-labels.ts';
import { jsonText, shownAmount } from '../fields/shown-values.ts';

interface Props {
  paymentId: string;
  /** The record (from the loaded rows, or found in every company), or undefined while it is being looked for. */
  payment: Payment | undefined;
  /** The name of the payment's company (its id where the config has no name for it). */
  companyName: string | undefined;
  /** How the looking for a payment not among the rows goes (looking, where it was found, not found, failed). */
  status: ReactNode;
  context: ValueContext;
  onClose: () => void;
}

/**
 * One payment, every field. A modal `<dialog>`: the browser traps focus, makes the page behind inert and turns
 * Escape into `cancel`, which closes it through the router so the URL always says whether it is open.
 */
export default function PaymentDrawer(props: Props) {
  const { paymentId, payment, context, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  // Layout effect: the dialog must leave the top layer before React detaches it, or the page stays inert.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(paymentId);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  const extra = payment ? Object.keys(payment).filter((key) => !isKnownField(key)) : [];

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click mirrors Escape, which the dialog handles (onCancel)
    <dialog
      ref={dialog}
      className="drawer"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // A click on the backdrop lands on the dialog element itself, outside its box: it closes, as Escape does.
      onClick={(event) => {
        const box = event.currentTarget.getBoundingClientRect();
        const outside =
          event.clientX < box.left ||
          event.clientX > box.right ||
          event.clientY < box.top ||
          event.clientY > box.bottom;
        if (event.target === event.currentTarget && outside) onClose();
      }}
    >
      <header className="drawer__head">
        <h2 id={titleId}>
          Payment <span className="mono">{paymentId}</span>
        </h2>
        <button type="button" className="button button--quiet" onClick={onClose}>
          Close <span className="visually-hidden">payment details</span>
        </button>
      </header>
      <div className="drawer__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy ID
        </button>
        <span role="status" className="hint">
          {copied === 'copied' && 'ID copied to the clipboard.'}
          {copied === 'failed' && 'Copy failed: select the ID and copy it by hand.'}
        </span>
      </div>
      {props.status}
      {payment && (
        <dl className="fields">
          <div className="fields__row">
            <dt>{fieldLabel(COMPANY_NAME_COLUMN)}</dt>
            <dd data-field={COMPANY_NAME_COLUMN}>{props.companyName}</dd>
          </div>
          {KNOWN_PAYMENT_FIELDS.filter((key) => key in payment).map((key) => (
            <div className="fields__row" key={key}>
              <dt>{fieldLabel(key)}</dt>
              <dd data-field={key}>
                {fieldContent(key, payment, context)}
                {key === 'amount' && amountAsSent(payment, context)}
              </dd>
            </div>
          ))}
          {extra.map((key) => (
            <div className="fields__row" key={key}>
              <dt>{key}</dt>
              <dd data-field={key} className="mono">
                {jsonText(payment[key])}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </dialog>
  );
}

/** Beside an amount the dashboard read, what was sent: `(1234 minor units)`, `(sent as "1234.50")`. */
function amountAsSent(payment: Payment, context: ValueContext): string | null {
  const { amount } = payment;
  if (shownAmount(amount, payment.currency, context.amountUnit).asSent) return null;
  if (typeof amount === 'number' && Number.isSafeInteger(amount))
    return ` (${amount} ${context.amountUnit} units)`;
  if (typeof amount === 'number' || typeof amount === 'string') return ` (sent as ${JSON.stringify(amount)})`;
  return null;
}
