import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInForm } from './sign-in-form.tsx';

const problem = (status: number, code: string, headers: Record<string, string> = {}, extra = {}) =>
  new Response(JSON.stringify({ type: `urn:x:${code}`, title: 't', status, detail: 'd', code, ...extra }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
const session = () =>
  new Response(JSON.stringify({ username: 'tina', expires_at: '2026-01-01T18:00:00.000Z' }), {
    headers: { 'Content-Type': 'application/json' },
  });

/** The BFF at the network boundary: each sign-in's body is kept, and answered by the next of `answers`. */
function serve(answers: Array<() => Response>) {
  const bodies: Record<string, string>[] = [];
  vi.stubGlobal('fetch', async (_input: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)));
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    return next();
  });
  return bodies;
}

function renderForm() {
  const onSignedIn = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SignInForm notice={null} onSignedIn={onSignedIn} />
    </QueryClientProvider>,
  );
  return onSignedIn;
}

function typeCredentials() {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'tina' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'her long password' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('sign-in form', () => {
  it('asks for the code when the BFF says one is needed: a labelled field, focused and announced; then sends it', async () => {
    const bodies = serve([() => problem(401, 'totp_required'), session]);
    const onSignedIn = renderForm();
    typeCredentials();
    expect(screen.queryByLabelText('Code from your authenticator app')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('Code from your authenticator app');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/enter the 6 digits your authenticator app shows/);
    // Asking for the code is not an error.
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(code, { target: { value: '12 34-56' } });
    fireEvent.submit(code);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(bodies).toEqual([
      { username: 'tina', password: 'her long password' },
      { username: 'tina', password: 'her long password', totp: '123456' },
    ]);
  });

  it('says a wrong code or password in one sentence, and clears the code for the next one', async () => {
    serve([() => problem(401, 'totp_required'), () => problem(401, 'invalid_credentials')]);
    renderForm();
    typeCredentials();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('Code from your authenticator app');
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username, password or code.');
    expect((code as HTMLInputElement).value).toBe('');
  });

  it('slowed by a guessing attack: says so in plain words with the turn, and asks again by itself to keep the place', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const slowed = () => problem(429, 'rate_limited', { 'Retry-After': '30' }, { turn_in_seconds: 240 });
    const bodies = serve([slowed, slowed, session]);
    const onSignedIn = renderForm();
    typeCredentials();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(/comes in about 4 minutes/),
    );
    expect(screen.getByRole('status').textContent).toMatch(/sign-ins are slowed and taken in turn/);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await vi.waitFor(() => expect(bodies).toHaveLength(2));
    expect(screen.getByRole('status').textContent).toMatch(/comes in about 4 minutes/);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(bodies).toHaveLength(3);
  });

  it('stops asking by itself once the user changes what she typed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const bodies = serve([
      () => problem(429, 'rate_limited', { 'Retry-After': '30' }, { turn_in_seconds: 240 }),
    ]);
    renderForm();
    typeCredentials();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/slowed/));
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'another password' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(bodies).toHaveLength(1);
  });

  it('starts with the username of the session that ended when given one, and never a password', () => {
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <SignInForm notice="You were signed out." initialUsername="tina" onSignedIn={vi.fn()} />
      </QueryClientProvider>,
    );
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('tina');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('You were signed out.');
  });
});
