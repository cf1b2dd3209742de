import { type SignIn, sessionSchema } from '@payments/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bff, quietFetch, readJson } from '../../../lib/api-client.ts';
import { resetSessionClock } from '../../../lib/session-clock.ts';
import { sessionQueryOptions } from './get-session.ts';

/** `POST /api/session`: sets the HttpOnly session cookie and answers with the session. */
async function signIn(credentials: SignIn) {
  return readJson(await bff.api.session.$post({ json: credentials }, { fetch: quietFetch }), sessionSchema);
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      // data of a previous user must never show to this one
      queryClient.clear();
      resetSessionClock();
      queryClient.setQueryData(sessionQueryOptions.queryKey, session);
    },
  });
}
