import type { Environment } from '@payments/shared';

/** Sandbox data must never be mistaken for real money: a loud, labelled band. Production stays quiet. */
export function EnvironmentBadge({ environment }: { environment: Environment }) {
  if (environment === 'sandbox') {
    return (
      <span className="env-badge env-badge--sandbox" data-environment="sandbox">
        Sandbox · test data
      </span>
    );
  }
  return (
    <span className="env-badge env-badge--production" data-environment="production">
      Production
    </span>
  );
}
