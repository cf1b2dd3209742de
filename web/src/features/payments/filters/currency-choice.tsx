import { MenuButton } from '../../../components/menu-button.tsx';
import type { ListView } from '../view/list-view.ts';
import { CurrencyMenu } from './currency-menu.tsx';

/** The currencies filter: a button naming those chosen, opening the list to tick them. In the deferred chunk. */
export function CurrencyChoice({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}) {
  return (
    <MenuButton
      name="Currency"
      value={view.currencies.length === 0 ? 'All currencies' : view.currencies.join(', ')}
      className="currency-choice"
    >
      {() => <CurrencyMenu view={view} onChange={onChange} />}
    </MenuButton>
  );
}
