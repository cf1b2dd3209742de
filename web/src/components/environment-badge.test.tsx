import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnvironmentBadge } from './environment-badge.tsx';

// Vitest empties CSS imports (even `?raw`), so the app's real stylesheets (app.css and the files it imports) are
// read from disk. Node's fs is loaded by name because the web project is type-checked without Node's types; the
// base is a variable so Vite does not turn `new URL(…, import.meta.url)` into an asset URL.
let css = '';
beforeAll(async () => {
  const moduleName = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ moduleName)) as {
    readFile: (path: URL, encoding: 'utf8') => Promise<string>;
  };
  const here = import.meta.url;
  const app = new URL('../app/app.css', here);
  const imports = [...(await fs.readFile(app, 'utf8')).matchAll(/@import "([^"]+)";/g)];
  const sheets = await Promise.all(imports.map(([, path]) => fs.readFile(new URL(path ?? '', app), 'utf8')));
  css = sheets.join('\n');
});
afterEach(cleanup);

/**
 * The declarations the app's real stylesheet gives one class (jsdom's CSS parser gives up on the whole sheet, so computed
 * styles are not available; reading the rule itself is the next best proof of a distinct look).
 */
function declarationsOf(className: string): Map<string, string> {
  const rule = new RegExp(`(?:^|\\n)\\.${className}\\s*\\{([^}]*)\\}`).exec(css);
  const declarations = new Map<string, string>();
  for (const line of (rule?.[1] ?? '').split(';')) {
    const [property, ...value] = line.split(':');
    if (property?.trim() && value.length > 0) declarations.set(property.trim(), value.join(':').trim());
  }
  return declarations;
}

function badgeOf(environment: 'sandbox' | 'production') {
  const { container } = render(<EnvironmentBadge environment={environment} />);
  const badge = container.querySelector<HTMLElement>('[data-environment]');
  if (!badge) throw new Error('no badge');
  const modifier = [...badge.classList].find((name) => name.startsWith('env-badge--'));
  return { badge, text: badge.textContent ?? '', look: modifier ? declarationsOf(modifier) : new Map() };
}

describe('EnvironmentBadge', () => {
  it('makes the sandbox unmistakable: says "Sandbox" and "test data" in its own loud style', () => {
    const sandbox = badgeOf('sandbox');
    expect(sandbox.text).toMatch(/sandbox/i);
    expect(sandbox.text).toMatch(/test data/i);
    expect(screen.getByText(/sandbox/i)).toBe(sandbox.badge);
    expect(sandbox.badge.classList).toContain('env-badge--sandbox');
    expect(sandbox.badge.dataset.environment).toBe('sandbox');
    // the stylesheet fills it with a loud background, which production's quiet badge does not have
    expect(sandbox.look.get('background')).toMatch(/#[0-9a-f]{3,6}/i);
    cleanup();
    const production = badgeOf('production');
    expect(production.look.size).toBeGreaterThan(0);
    expect(production.look.has('background')).toBe(false);
    expect(production.look).not.toEqual(sandbox.look);
  });

  it('shows production as its own state, never as sandbox', () => {
    const production = badgeOf('production');
    expect(production.text).toBe('Production');
    expect(production.text).not.toMatch(/sandbox|test/i);
    expect(production.badge.dataset.environment).toBe('production');
    expect(production.badge.classList).toContain('env-badge--production');
    expect(production.badge.classList).not.toContain('env-badge--sandbox');
  });
});
