import { MenuButton } from '../../../components/menu-button.tsx';
import { statusesText } from '../fields/field-labels.ts';
import { type StatusFilterProps, StatusMenu } from './status-menu.tsx';

/** The statuses filter: a button naming those chosen, opening the list to tick them. In the deferred chunk. */
export function StatusChoice(props: StatusFilterProps) {
  return (
    <MenuButton name="Status" value={statusesText(props.view.statuses)} className="status-choice">
      {() => <StatusMenu {...props} />}
    </MenuButton>
  );
}
