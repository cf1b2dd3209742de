import type { Held, Leases } from '../../../shared-state/index.ts';

/**
 * Each user's places for walks (a list skipping to a date_to, a summary, a search, a download): WALKS_PER_USER at
 * once, across replicas, so one user's many walks cannot take the upstream budget from everyone else.
 */
export function createWalkPlaces(leases: Leases, perUser: number) {
  return {
    /** A place for one walk of `user`'s, or null when all are taken. */
    enter: (user: string): Promise<Held | null> => leases.enter(`walks:${user}`, perUser),
  };
}

export type WalkPlaces = ReturnType<typeof createWalkPlaces>;

/** Why a walk was refused: the user's places are all taken. */
export const busyWalks = (places: number) =>
  `you have ${places} counts, searches or downloads running already; wait for one to finish`;
