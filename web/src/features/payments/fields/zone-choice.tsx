import { MenuButton } from '../../../components/menu-button.tsx';
import { useDisplayZone } from '../view/display-zone.ts';
import { ZoneMenu } from './zone-menu.tsx';

/** Which zone times are shown in: a button naming it, opening the choice. In the deferred chunk. */
export function ZoneChoice({ companyZone }: { companyZone: string }) {
  const { zone } = useDisplayZone(companyZone);
  return (
    <MenuButton name="Times in" value={zone} className="zone-choice">
      {() => <ZoneMenu companyZone={companyZone} />}
    </MenuButton>
  );
}
