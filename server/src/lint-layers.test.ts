import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');
let dir = '';

/** The rules `pnpm lint` applies, run on one fixture file placed where the layer rules see it. */
async function lintAs(path: string, source: string, others: Record<string, string> = {}) {
  const files = { [path]: source, ...others };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  try {
    await promisify(execFile)(BIOME, ['lint', '--max-diagnostics=50', path], { cwd: dir });
    return '';
  } catch (error) {
    return (
      String((error as { stderr?: string; stdout?: string }).stdout ?? '') +
      String((error as { stderr?: string }).stderr ?? '')
    );
  } finally {
    for (const name of Object.keys(files)) await rm(join(dir, name));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lint-layers-'));
  const config = JSON.parse(await readFile(join(ROOT, 'biome.json'), 'utf8'));
  config.$schema = undefined;
  config.vcs = { enabled: false };
  await writeFile(join(dir, 'biome.json'), JSON.stringify(config));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pnpm lint keeps the layers apart', () => {
  it.each([
    [
      'server/src/bff/x.ts',
      "import { startSandbox } from '../sandbox/index.ts';\n\nexport const x = startSandbox;\n",
    ],
    [
      'server/src/config/x.ts',
      "import { DEFAULT_CREDENTIALS } from '../sandbox/tenants.ts';\n\nexport const x = DEFAULT_CREDENTIALS;\n",
    ],
    [
      'server/src/upstream/x.ts',
      "import { createBff } from '../bff/create-bff.ts';\n\nexport const x = createBff;\n",
    ],
    ['shared/src/x.ts', "import { createBff } from '@payments/server/bff';\n\nexport const x = createBff;\n"],
    [
      'web/src/lib/x.ts',
      "import { createBff } from '@payments/server/bff';\n\nexport const x = createBff;\n",
    ],
    [
      'web/src/lib/x.ts',
      "import { stop } from '../../../server/src/runtime/serve.ts';\n\nexport const x = stop;\n",
    ],
  ])('refuses the import in %s: %s', async (path, source) => {
    expect(await lintAs(path, source)).toContain('lint/style/noRestrictedImports');
  });

  it('refuses an import cycle', async () => {
    const found = await lintAs(
      'server/src/bff/a.ts',
      "import { b } from './b.ts';\n\nexport const a = () => b;\n",
      {
        'server/src/bff/b.ts': "import { a } from './a.ts';\n\nexport const b = () => a;\n",
      },
    );
    expect(found).toContain('lint/suspicious/noImportCycles');
  });

  it.each([
    [
      'web/src/lib/x.ts',
      "import type { AppType } from '@payments/server/bff';\n\nexport type X = AppType;\n",
    ],
    [
      'server/src/main-x.ts',
      "import { startSandbox } from './sandbox/index.ts';\n\nexport const x = startSandbox;\n",
    ],
    [
      'server/src/bff/x.test.ts',
      "import { startSandbox } from '../sandbox/index.ts';\n\nexport const x = startSandbox;\n",
    ],
  ])('allows what the layers allow in %s: %s', async (path, source) => {
    expect(await lintAs(path, source)).toBe('');
  });
});
