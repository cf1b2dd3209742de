import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '../api/check-session.ts';
import IdleWarning from './idle-warning.tsx';
import IdleWarningDialog, { timeLeftText } from './idle-warning-dialog.tsx';
import type { IdleWatchPorts } from './use-idle-watch.ts';

beforeAll(() => {
  // jsdom draws no top layer: a dialog opened modally is an open dialog
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});
beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 9) });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderDialog(secondsLeft: number) {
  const onStay = vi.fn();
  const onSignOut = vi.fn();
  const opener = document.createElement('button');
  opener.textContent = 'a row';
  document.body.append(opener);
  opener.focus();
  const view = render(
    <IdleWarningDialog
      deadline={Date.now() + secondsLeft * 1000}
      unreachable={false}
      signingOut={false}
      onStay={onStay}
      onSignOut={onSignOut}
    />,
  );
  return { onStay, onSignOut, opener, view };
}

describe('idle warning dialog', () => {
  it('is a modal alert dialog, named by its title and described by the countdown, with "Stay signed in" focused', () => {
    renderDialog(120);
    const dialog = screen.getByRole('alertdialog', { name: 'Your session is about to end' });
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toContain('you will be signed out in 2 min');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
  });

  it('counts down every second, and says so in the live region only near the end', () => {
    renderDialog(75);
    const time = () => document.querySelector('.idle-warning__time')?.textContent;
    const status = () => screen.getByRole('status').textContent;
    expect(time()).toBe('1 min 15 s');
    expect(status()).toBe('');
    act(() => vi.advanceTimersByTime(16_000));
    expect(time()).toBe('59 s');
    expect(status()).toBe('About a minute left.');
    act(() => vi.advanceTimersByTime(60_000));
    expect(time()).toBe('0 s');
    expect(status()).toBe('10 seconds left.');
  });

  it('Escape stays (the cancel is kept from closing it); the buttons do what they say', () => {
    const { onStay, onSignOut } = renderDialog(100);
    const cancel = new Event('cancel', { cancelable: true });
    fireEvent(screen.getByRole('alertdialog'), cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onStay).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(onStay).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('gives focus back where it was when it closes', () => {
    const { opener, view } = renderDialog(100);
    expect(document.activeElement).not.toBe(opener);
    view.unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('writes the time left in minutes and seconds', () => {
    expect(timeLeftText(120)).toBe('2 min');
    expect(timeLeftText(61)).toBe('1 min 1 s');
    expect(timeLeftText(9)).toBe('9 s');
  });
});

describe('idle warning', () => {
  /** The session clock and the BFF as the watch sees them; `use` restarts the idle time. */
  function ports(idleSeconds: number) {
    let deadline = Date.now() + idleSeconds * 1000;
    const listeners = new Set<() => void>();
    const checks: string[] = [];
    const value: IdleWatchPorts = {
      clock: {
        idleDeadline: () => deadline,
        hasNewsOfUser: () => false,
        onUserInput: () => () => {},
        pauseUserInput: () => {},
        onIdleDeadline: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        shareIdleDeadline: () => () => {},
      },
      check: async (kind): Promise<SessionState> => {
        checks.push(kind);
        if (Date.now() >= deadline) return 'idle';
        if (kind === 'use') {
          deadline = Date.now() + idleSeconds * 1000;
          for (const listener of listeners) listener();
        }
        return 'on';
      },
    };
    return { value, checks };
  }

  function renderWarning(idleSeconds: number) {
    const port = ports(idleSeconds);
    const onEnded = vi.fn();
    const onSignOut = vi.fn();
    render(
      <IdleWarning
        idleSeconds={idleSeconds}
        onEnded={onEnded}
        onSignOut={onSignOut}
        signingOut={false}
        ports={port.value}
      />,
    );
    return { ...port, onEnded, onSignOut };
  }

  it('shows halfway through a one-minute timeout; "Stay signed in" asks the BFF as use and closes it', async () => {
    const { checks, onEnded } = renderWarning(60);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' })));
    expect(checks).toEqual(['use']);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('left alone, ends as idle at the deadline, after a look at the BFF', async () => {
    const { checks, onEnded } = renderWarning(300);
    await act(() => vi.advanceTimersByTimeAsync(180_000));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(checks).toEqual(['look']);
    expect(onEnded).toHaveBeenCalledWith('idle');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows nothing without a known idle timeout', async () => {
    render(
      <IdleWarning
        idleSeconds={undefined}
        onEnded={vi.fn()}
        onSignOut={vi.fn()}
        signingOut={false}
        ports={ports(60).value}
      />,
    );
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
