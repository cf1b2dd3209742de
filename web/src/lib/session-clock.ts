/**
 * The session's idle timer as the app knows it. The server keeps the timer (SESSION_IDLE_TIMEOUT): a request
 * restarts it unless marked background. Here are kept what the app tells it and what it answers:
 *
 * - news of the user: input since a request last counted as use. The API client sends a request as use only
 *   when there is news (see `takeNewsOfUser`), so a refetch the app makes by itself while nobody is there never
 *   keeps the session on, and what the user does always does;
 * - the deadline: when the session ends without use, from the `X-Session-Idle-Left` of every answer, shared by
 *   the tabs of this browser (one cookie, one session) over a BroadcastChannel. It only moves later: an answer
 *   computed before another tab's use is older news, not a shorter session. A session that ended some other way
 *   is told by a 401, not by the deadline.
 */
// Counted rather than timed, so that input in the very millisecond a request left is not lost.
let inputs = 1; // opening the page is the user's doing
let reported = 0;
let deadline: number | null = null;
let channel: BroadcastChannel | null = null;
let paused = false;
const listeners = new Set<() => void>();
const inputListeners = new Set<() => void>();

const CHANNEL = 'payments-session-idle';
/**
 * What counts as the user being there: deliberate input, not a pointer drifting over the page. `click`, `input`
 * and `change` too: a screen reader activates a control with a click alone, and a picked value or an autofill
 * comes with no key.
 */
const INPUT_EVENTS = ['keydown', 'pointerdown', 'wheel', 'touchstart', 'click', 'input', 'change'] as const;

/** Something the user did: a key, a click, a scroll, a touch; or an answer such as "Stay signed in". */
export function noteUserInput(): void {
  inputs += 1;
}

function heard(): void {
  if (paused) return;
  noteUserInput();
  for (const listener of inputListeners) listener();
}

/** Counts the user's input on the page from now on, for as long as the page lives (main.tsx starts it). */
export function watchUserInput(): void {
  for (const type of INPUT_EVENTS) window.addEventListener(type, heard, { capture: true, passive: true });
}

/** Input the page hears, counted (not while paused). */
export function onUserInput(listener: () => void): () => void {
  inputListeners.add(listener);
  return () => {
    inputListeners.delete(listener);
  };
}

/** While the idle warning shows, input elsewhere is not the answer it asks for: only its buttons are. */
export function pauseUserInput(pause: boolean): void {
  paused = pause;
}

/** Whether the user did something the server has not heard of. */
export function hasNewsOfUser(): boolean {
  return inputs > reported;
}

/** For a request about to be sent: whether it carries news of the user (and then counts as use). */
export function takeNewsOfUser(): boolean {
  if (!hasNewsOfUser()) return false;
  reported = inputs;
  return true;
}

/** The request that carried the news never arrived: the next one carries it. */
export function newsNotDelivered(): void {
  reported = 0;
}

function adopt(at: number, share: boolean): void {
  if (deadline !== null && at <= deadline) return;
  deadline = at;
  if (share) channel?.postMessage(at);
  for (const listener of listeners) listener();
}

/** An answer's `X-Session-Idle-Left`, in whole seconds. */
export function noteIdleLeft(seconds: number): void {
  adopt(Date.now() + seconds * 1000, true);
}

/** When the session ends without use (epoch ms, this browser's clock); null before the first answer. */
export function idleDeadline(): number | null {
  return deadline;
}

export function onIdleDeadline(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Another session begins, or this one ended: nothing known carries over. */
export function resetSessionClock(): void {
  deadline = null;
  inputs = 1;
  reported = 0;
}

/** Hears and tells the other tabs' deadlines, until the returned function is called. */
export function shareIdleDeadline(): () => void {
  if (typeof BroadcastChannel === 'undefined' || channel !== null) return () => {};
  const opened = new BroadcastChannel(CHANNEL);
  opened.onmessage = (event: MessageEvent<unknown>) => {
    if (typeof event.data === 'number' && Number.isFinite(event.data)) adopt(event.data, false);
  };
  channel = opened;
  return () => {
    opened.close();
    if (channel === opened) channel = null;
  };
}
