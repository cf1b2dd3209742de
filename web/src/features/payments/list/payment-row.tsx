import type { Payment } from '@payments/shared';
import { type CSSProperties, type FocusEvent, type KeyboardEvent, memo } from 'react';
import { paths } from '../../../config/paths.ts';
import { fieldCell, type ValueContext } from '../fields/field-content.tsx';
import { COMPANY_NAME_COLUMN } from '../fields/field-labels.ts';

/**
 * A visible column as a row draws it, with its class and width. Built once per set of columns and shared by
 * every row: a row rendered while scrolling allocates no props of its own for them, and React finds the same
 * style object again.
 */
export interface CellLayout {
  id: string;
  className: string;
  style: CSSProperties;
}

interface Props {
  row: Payment;
  /** The row's company and its name, in a group's list: ids repeat across companies. */
  companyId?: string | undefined;
  company?: string | undefined;
  /** The row's position in the whole list. */
  index: number;
  /** Whether its link is the table's one tab stop. */
  active: boolean;
  /** Current filters as `?…`, carried by the link to the payment. */
  search: string;
  cells: readonly CellLayout[];
  context: ValueContext;
  onFocusRow: (index: number) => void;
  onBlurRow: (index: number, event?: FocusEvent) => void;
  onRowKeyDown: (event: KeyboardEvent<HTMLAnchorElement>, index: number) => void;
}

/**
 * One payment as a table row. Memoized, so a render that changes nothing for the row (a state change elsewhere in
 * the table) skips it; while scrolling, a reused row element renders with its new payment and only its text and
 * attributes change (see row-keys.ts).
 */
export const PaymentRow = memo(function PaymentRow({
  row,
  companyId,
  company,
  index,
  active,
  search,
  cells,
  context,
  onFocusRow,
  onBlurRow,
  onRowKeyDown,
}: Props) {
  const id = String(row.id);
  // On a phone the pinned id is all a row shows without a swipe: lines under it give the row's reference and, in a
  // group, its company. Hidden from screen readers: the row's own cells say both.
  const aside = [fieldCell('reference', row, context).title, company].filter((text) => text !== undefined);
  return (
    <tr
      aria-rowindex={index + 2}
      data-row-id={id}
      data-company-id={companyId}
      className="grid__row grid__row--data"
    >
      {cells.map((cell) => {
        const { content, title } =
          cell.id === COMPANY_NAME_COLUMN
            ? { content: company, title: company }
            : fieldCell(cell.id, row, context);
        return (
          // keyed by column: a reused row element keeps its cells and only their text changes; the full text is
          // in a tooltip, where a narrow column cuts it
          <td key={cell.id} className={cell.className} style={cell.style} data-column={cell.id} title={title}>
            {cell.id === 'id' ? (
              <>
                <a
                  className="row-link"
                  href={`${paths.payment(id)}${search}`}
                  data-row-link={index}
                  tabIndex={active ? 0 : -1}
                  onFocus={() => onFocusRow(index)}
                  onBlur={(event) => onBlurRow(index, event)}
                  onKeyDown={(event) => onRowKeyDown(event, index)}
                >
                  {id}
                </a>
                {aside.map((text, line) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a line's place is what it is (reference, company)
                  <span key={line} className="row-aside" aria-hidden="true">
                    {text}
                  </span>
                ))}
              </>
            ) : (
              content
            )}
          </td>
        );
      })}
    </tr>
  );
});
