import { BACKGROUND_HEADER } from '@payments/shared/rules';
import { bff, endedIdle, quietFetch } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { noteUserInput } from '../../../lib/session-clock.ts';

/** What the BFF says of the session: on, ended for want of use, ended otherwise, or nothing (unreachable). */
export type SessionState = 'on' | 'idle' | 'ended' | 'unknown';

/**
 * `GET /api/session` for the idle warning: `use` counts as use of the session ("Stay signed in", or telling the
 * BFF of input that made no request), `look` is a background look that leaves the idle time as it is. The idle
 * time left reaches the session clock through the API client, as on every answer.
 */
export async function checkSession(kind: 'use' | 'look'): Promise<SessionState> {
  if (kind === 'use') noteUserInput();
  try {
    await bff.api.session.$get(undefined, {
      fetch: quietFetch,
      headers: kind === 'look' ? { [BACKGROUND_HEADER]: '1' } : {},
    });
    return 'on';
  } catch (error) {
    if (isApiError(error) && error.status === 401) return endedIdle(error) ? 'idle' : 'ended';
    return 'unknown';
  }
}
