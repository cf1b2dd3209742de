import { MenuButton } from '../../../components/menu-button.tsx';
import { statusesText } from '../fields/field-labels.ts';
import type { ListView } from '../view/list-view.ts';
import { StatusMenu } from './status-menu.tsx';

/** The statuses filter: a button naming those chosen, opening the list to tick them. In the deferred chunk. */
export function StatusChoice({
  view,
  statuses,
  onChange,
}: {
  view: ListView;
  statuses: readonly string[];
  onChange: (next: Partial<ListView>) => void;
}) {
  return (
    <MenuButton name="Status" value={statusesText(view.statuses)} className="status-choice">
      {() => <StatusMenu view={view} statuses={statuses} onChange={onChange} />}
    </MenuButton>
  );
}
