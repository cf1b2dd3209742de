import { MenuButton } from '../../../components/menu-button.tsx';
import type { ListView } from '../view/list-view.ts';
import { StatusMenu } from './status-menu.tsx';

/** What the status button says: the statuses chosen, or every one. */
function statusesText(statuses: readonly string[]): string {
  return statuses.length === 0 ? 'All statuses' : statuses.join(', ');
}

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
