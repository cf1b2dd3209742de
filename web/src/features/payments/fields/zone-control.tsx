import { Suspense } from 'react';
import { WaitingField } from '../../../components/waiting-field.tsx';
import { deferredPart } from '../load-deferred-parts.ts';
import { useDisplayZone } from '../view/display-zone.ts';

const ZoneChoice = deferredPart('ZoneChoice');

/** The choice of the zone times are shown in (in the deferred chunk); until its code arrives, it waits disabled. */
export function ZoneControl({ companyZone }: { companyZone: string }) {
  const { zone } = useDisplayZone(companyZone);
  return (
    <Suspense fallback={<WaitingField label="Times in" value={zone} className="menu-button zone-choice" />}>
      <ZoneChoice companyZone={companyZone} />
    </Suspense>
  );
}
