import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // errors with a code are answers; only a lost connection is worth one more try
        retry: (count, error) => isApiError(error) && error.code === 'network_error' && count < 1,
      },
    },
  });
}
