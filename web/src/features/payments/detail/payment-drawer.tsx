import type { Payment } from '@payments/shared';
import { KNOWN_PAYMENT_FIELDS } from '@payments/shared/rules';
import { type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { fieldContent, isKnownField, type ValueContext } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN, fieldLabel } from '../fields/field-labels.ts';
import { formatCount } from '../fields/number-text.ts';
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
  /** The address of this payment in this view, for "Copy link". */
  link: string;
  /** Where the payment is among the loaded rows, once found. */
  position: { index: number; loaded: number } | null;
  /** The payment before or after it among the loaded rows: its address, and how to open it here; absent at either end. */
  previous?: Step | undefined;
  next?: Step | undefined;
  onClose: () => void;
}

interface Step {
  href: string;
  open: () => void;
}

/** `k` and `j` step through the payments as the links do (as in mail readers); not while typing. */
const STEP_KEYS: Record<string, 'previous' | 'next'> = { k: 'previous', j: 'next' };

/**
 * Previous or Next: a link (opened in a new tab, it shows that payment), opened in place by a plain click; a
 * disabled button at either end, where there is nothing to link to.
 */
function StepLink({ step, keys, children }: { step: Step | undefined; keys: string; children: ReactNode }) {
  if (!step)
    return (
      <button type="button" className="button" disabled aria-keyshortcuts={keys}>
        {children}
      </button>
    );
  return (
    <a
      className="button"
      href={step.href}
      aria-keyshortcuts={keys}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        step.open();
      }}
    >
      {children}
    </a>
  );
}

/**
 * One payment, every field, read as a finance tool reads it (the amount in its currency, the time in the
 * configured zone), the values as the API sent them one disclosure away. A modal `<dialog>`: the browser traps
 * focus, makes the page behind inert and turns Escape into `cancel`, which closes it through the router so the
 * URL always says whether it is open.
 */
export default function PaymentDrawer(props: Props) {
  const { paymentId, payment, context, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [copied, setCopied] = useState<'idle' | 'id' | 'link' | 'failed'>('idle');

  // Layout effect: the dialog must leave the top layer before React detaches it, or the page stays inert.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const copy = async (what: 'id' | 'link') => {
    try {
      await navigator.clipboard.writeText(what === 'id' ? paymentId : props.link);
      setCopied(what);
    } catch {
      setCopied('failed');
    }
  };

  const extra = payment ? Object.keys(payment).filter((key) => !isKnownField(key)) : [];

  return (
    <dialog
      ref={dialog}
      className="drawer"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        const name = STEP_KEYS[event.key];
        if (name === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
        const step = props[name];
        if (step === undefined || /^(INPUT|TEXTAREA|SELECT)$/.test((event.target as HTMLElement).tagName))
          return;
        event.preventDefault();
        setCopied('idle');
        step.open();
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
      <nav className="drawer__steps" aria-label="Loaded payments">
        <StepLink step={props.previous} keys="k">
          <span aria-hidden="true">↑</span> Previous
        </StepLink>
        <StepLink step={props.next} keys="j">
          <span aria-hidden="true">↓</span> Next
        </StepLink>
        {props.position && (
          <span className="hint">
            {formatCount(props.position.index + 1)} of {formatCount(props.position.loaded)} loaded
          </span>
        )}
      </nav>
      {payment && <AmountLine payment={payment} context={context} />}
      <div className="drawer__actions">
        <button type="button" className="button" onClick={() => void copy('link')}>
          Copy link
        </button>
        <button type="button" className="button" onClick={() => void copy('id')}>
          Copy ID
        </button>
        <span role="status" className="hint">
          {copied === 'id' && 'ID copied to the clipboard.'}
          {copied === 'link' && 'Link copied to the clipboard.'}
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
              <dd data-field={key}>{fieldContent(key, payment, context)}</dd>
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
      {payment && (
        <details className="drawer__raw">
          <summary>As sent by the API</summary>
          {payment.amount !== undefined && (
            <p data-testid="amount-as-sent">
              amount: <span className="mono">{jsonText(payment.amount)}</span>
              {amountUnitNote(payment, context)}
            </p>
          )}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long record scrolls sideways, so it must take focus for the keys to reach it (axe scrollable-region-focusable) */}
          <pre className="mono" tabIndex={0}>
            {JSON.stringify(payment, null, 2)}
          </pre>
        </details>
      )}
    </dialog>
  );
}

/** The amount, its status and its time, above the fields: what a finance reader looks for first. */
function AmountLine({ payment, context }: { payment: Payment; context: ValueContext }) {
  return (
    <p className="drawer__amount">
      <span className="drawer__money" data-testid="drawer-amount">
        {fieldContent('amount', payment, context)}
      </span>
      {fieldContent('status', payment, context)}
      <span className="hint">{fieldContent('created_at', payment, context)}</span>
    </p>
  );
}

/** What an integer amount the dashboard read stands for: `(minor units)`. */
function amountUnitNote(payment: Payment, context: ValueContext): string {
  const { amount } = payment;
  if (shownAmount(amount, payment.currency, context.amountUnit).asSent) return ' (not read as money)';
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? ` (${context.amountUnit} units)` : '';
}
