import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

function capabilityZones<Name extends string>(files: Record<Name, string>) {
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => [
      name,
      { says: 'a capability imports only view/, fields/ and list/', refuses: [file] },
    ]),
  ) as Record<Name, { says: string; refuses: string[] }>;
}

/** Each zone of biome.json, by a phrase of its message and imports it refuses (repository paths or packages). */
const ZONES = {
  workspace: {
    says: 'imports nothing of the workspace',
    refuses: [
      '@payments/server/bff',
      '@payments/web',
      '@payments/test',
      'server/src/bff/create-bff.ts',
      'web/src/lib/api-client.ts',
    ],
  },
  serverTypesOnly: {
    says: "only the BFF's route types (AppType)",
    refuses: ['@payments/server/bff', '@payments/server/sandbox', 'server/src/runtime/serve.ts'],
  },
  noApp: { says: 'features never import each other nor app/', refuses: ['web/src/app/router.tsx'] },
  oneStack: {
    says: 'routes with react-router and models its table with @tanstack/react-table',
    refuses: [
      'react-router-dom',
      '@tanstack/react-router',
      'wouter',
      'history',
      '@tanstack/table-core',
      'react-table',
      'ag-grid-react',
      '@mui/x-data-grid',
      'web/src/lib/history-router.tsx',
    ],
  },
  noAuth: { says: 'features never import each other', refuses: ['web/src/features/auth/api/get-session.ts'] },
  noCompanies: {
    says: 'features never import each other',
    refuses: ['web/src/features/companies/components/company-switcher.tsx'],
  },
  noPayments: {
    says: 'features never import each other',
    refuses: ['web/src/features/payments/list/get-payments.ts'],
  },
  noCapability: {
    says: 'they import none of them',
    refuses: [
      'web/src/features/payments/list/use-payment-rows.ts',
      'web/src/features/payments/summary/get-summary.ts',
      'web/src/features/payments/export/use-export-payments.ts',
      'web/src/features/payments/detail/find-payment.ts',
      'web/src/features/payments/filters/date-presets.ts',
      'web/src/features/payments/search/search-cache.ts',
    ],
  },
  // inside features/payments: a capability imports only view/, fields/ and list/, and its own folder
  ...capabilityZones({
    noSummary: 'web/src/features/payments/summary/get-summary.ts',
    noExport: 'web/src/features/payments/export/use-export-payments.ts',
    noDetail: 'web/src/features/payments/detail/find-payment.ts',
    noFilters: 'web/src/features/payments/filters/date-presets.ts',
    noSearch: 'web/src/features/payments/search/search-status.ts',
  }),
  appWide: {
    says: 'they import no feature and not app/',
    refuses: ['web/src/features/auth/api/get-session.ts', 'web/src/app/router.tsx'],
  },
  sandbox: {
    says: 'know the sandbox',
    refuses: ['server/src/sandbox/index.ts', 'server/src/sandbox', '@payments/server/sandbox'],
  },
  bff: {
    says: 'import nothing of bff/',
    refuses: ['server/src/bff/create-bff.ts', 'server/src/bff/auth/index.ts', '@payments/server/bff'],
  },
  config: { says: 'neither the configuration', refuses: ['server/src/config/settings.ts'] },
};
type Zone = keyof typeof ZONES;

const WEB: Zone[] = ['serverTypesOnly', 'oneStack'];
const FEATURE: Zone[] = [...WEB, 'noApp'];
const APP_WIDE: Zone[] = [...WEB, 'appWide'];
const PAYMENTS: Zone[] = [...FEATURE, 'noAuth', 'noCompanies'];
/** What every capability of features/payments may import of the others: view/, fields/ and list/. */
const SHARED_PARTS = [
  'web/src/features/payments/view/list-view.ts',
  'web/src/features/payments/fields/number-text.ts',
  'web/src/features/payments/list/get-payments.ts',
];
const BELOW_BFF: Zone[] = ['sandbox', 'bff'];
const APP_TYPE = 'type AppType from @payments/server/bff';

/**
 * One fixture file per folder (and per kind of file where tests differ): the zones whose imports it must refuse,
 * each zone checked in every folder it covers, so that a rule set losing one zone fails here.
 */
const FOLDERS: { file: string; zones: Zone[]; allows: string[] }[] = [
  { file: 'shared/src/x.ts', zones: ['workspace'], allows: ['zod/mini', 'shared/src/money.ts'] },
  {
    file: 'web/src/app/routes/x.tsx',
    zones: WEB,
    allows: [
      APP_TYPE,
      'web/src/features/payments/list/get-payments.ts',
      'web/src/features/auth/api/get-session.ts',
      'web/src/components/page-loading.tsx',
      'web/src/lib/api-error.ts',
      'web/src/config/paths.ts',
      '@payments/shared',
    ],
  },
  {
    file: 'web/src/main.tsx',
    zones: WEB,
    allows: ['web/src/app/router.tsx', 'react-router', 'react-router/dom'],
  },
  { file: 'web/vite.config.ts', zones: WEB, allows: ['vite'] },
  {
    file: 'web/src/features/auth/components/x.tsx',
    zones: [...FEATURE, 'noCompanies', 'noPayments'],
    allows: [APP_TYPE, 'web/src/features/auth/api/get-session.ts', 'web/src/lib/api-error.ts'],
  },
  {
    file: 'web/src/features/companies/utils/x.test.ts',
    zones: [...FEATURE, 'noAuth', 'noPayments'],
    allows: ['web/src/features/companies/utils/company-tree.ts', 'web/src/components/error-panel.tsx'],
  },
  {
    file: 'web/src/features/payments/list/x.ts',
    zones: [...PAYMENTS, 'noSummary', 'noExport', 'noDetail', 'noFilters', 'noSearch'],
    allows: [
      APP_TYPE,
      'web/src/features/payments/view/list-view.ts',
      'web/src/config/paths.ts',
      'react-router',
      '@tanstack/react-table',
    ],
  },
  {
    file: 'web/src/features/payments/summary/x.ts',
    zones: [...PAYMENTS, 'noExport', 'noDetail', 'noFilters', 'noSearch'],
    allows: [...SHARED_PARTS, 'web/src/features/payments/summary/daily-series.ts'],
  },
  {
    file: 'web/src/features/payments/export/x.tsx',
    zones: [...PAYMENTS, 'noSummary', 'noDetail', 'noFilters', 'noSearch'],
    allows: [...SHARED_PARTS, 'web/src/features/payments/export/export-columns.ts'],
  },
  {
    file: 'web/src/features/payments/detail/x.test.tsx',
    zones: [...PAYMENTS, 'noSummary', 'noExport', 'noFilters', 'noSearch'],
    allows: [...SHARED_PARTS, 'web/src/features/payments/detail/find-payment.ts'],
  },
  {
    file: 'web/src/features/payments/filters/x.tsx',
    zones: [...PAYMENTS, 'noSummary', 'noExport', 'noDetail', 'noSearch'],
    allows: [...SHARED_PARTS, 'web/src/features/payments/filters/date-presets.ts'],
  },
  {
    file: 'web/src/features/payments/search/x.ts',
    zones: [...PAYMENTS, 'noSummary', 'noExport', 'noDetail', 'noFilters'],
    allows: [...SHARED_PARTS, 'web/src/features/payments/search/search-status.ts'],
  },
  {
    file: 'web/src/features/payments/view/x.ts',
    zones: [...FEATURE, 'noAuth', 'noCompanies', 'noCapability'],
    allows: ['web/src/features/payments/fields/shown-values.ts', '@payments/shared'],
  },
  {
    file: 'web/src/features/payments/fields/x.tsx',
    zones: [...FEATURE, 'noAuth', 'noCompanies', 'noCapability'],
    allows: ['web/src/features/payments/view/list-view.ts'],
  },
  { file: 'web/src/components/x.tsx', zones: APP_WIDE, allows: ['web/src/lib/api-error.ts'] },
  {
    file: 'web/src/lib/x.ts',
    zones: APP_WIDE,
    allows: [APP_TYPE, 'web/src/config/paths.ts', 'react-router'],
  },
  { file: 'web/src/config/x.ts', zones: APP_WIDE, allows: ['@payments/shared'] },
  { file: 'server/src/config/x.ts', zones: BELOW_BFF, allows: ['server/src/upstream/index.ts'] },
  { file: 'server/src/shared-state/x.ts', zones: BELOW_BFF, allows: ['redis'] },
  { file: 'server/src/runtime/x.ts', zones: BELOW_BFF, allows: ['server/src/config/settings.ts'] },
  { file: 'server/src/upstream/x.ts', zones: [...BELOW_BFF, 'config'], allows: ['@payments/shared'] },
  {
    file: 'server/src/bff/payments/list/x.ts',
    zones: ['sandbox'],
    allows: [
      'server/src/config/settings.ts',
      'server/src/upstream/index.ts',
      'server/src/shared-state/index.ts',
      'server/src/runtime/logger.ts',
    ],
  },
  { file: 'server/src/bff/x.ts', zones: ['sandbox'], allows: ['server/src/bff/auth/index.ts'] },
  { file: 'server/src/cli/x.ts', zones: ['sandbox'], allows: ['server/src/bff/auth/users.ts'] },
  // tests and their helpers know the sandbox, and keep the other zones of their folder
  { file: 'server/src/config/x.test.ts', zones: ['bff'], allows: ['server/src/sandbox/index.ts'] },
  { file: 'server/src/shared-state/testing/x.ts', zones: ['bff'], allows: ['server/src/sandbox/index.ts'] },
  { file: 'server/src/runtime/x.test.ts', zones: ['bff'], allows: ['server/src/sandbox/index.ts'] },
  {
    file: 'server/src/upstream/x.test.ts',
    zones: ['bff', 'config'],
    allows: ['server/src/sandbox/index.ts'],
  },
  {
    file: 'server/src/upstream/testing/x.ts',
    zones: ['bff', 'config'],
    allows: ['@payments/server/sandbox'],
  },
  { file: 'server/src/bff/x.test.ts', zones: [], allows: ['server/src/sandbox/index.ts'] },
  { file: 'server/src/bff/testing/x.ts', zones: [], allows: ['server/src/sandbox/index.ts'] },
  { file: 'server/src/cli/x.test.ts', zones: [], allows: ['server/src/sandbox/index.ts'] },
  // the composition
  {
    file: 'server/src/main.ts',
    zones: [],
    allows: ['server/src/sandbox/index.ts', 'server/src/bff/create-bff.ts'],
  },
  { file: 'server/src/compose.ts', zones: [], allows: ['server/src/sandbox/index.ts'] },
];

interface Line {
  file: string;
  line: number;
  from: string;
  /** The zone that must refuse this import, or none when it is allowed. */
  zone?: Zone;
}

/** How the fixture at `file` writes an import of `target` (a repository path or a package), named `v<index>`. */
function importLine(file: string, target: string, index: number): string {
  if (target === APP_TYPE) return `import type { AppType as V${index} } from '@payments/server/bff';`;
  const isPath = /^(server|web|shared)\//.test(target);
  const specifier = isPath ? relative(dirname(file), target).replace(/^(?!\.)/, './') : target;
  return `import { v${index} } from '${specifier}';`;
}

const lines: Line[] = [];
const fixtures: Record<string, string> = {};
for (const { file, zones, allows } of FOLDERS) {
  const imports = [
    ...zones.flatMap((zone) => ZONES[zone].refuses.map((from) => ({ file, from, zone }))),
    ...allows.map((from) => ({ file, from, zone: undefined })),
  ].map((entry, index) => ({ ...entry, line: index + 1 }));
  lines.push(...imports);
  const values = imports.filter((i) => i.from !== APP_TYPE).map((i) => `v${i.line - 1}`);
  const types = imports.filter((i) => i.from === APP_TYPE).map((i) => `V${i.line - 1}`);
  fixtures[file] = [
    ...imports.map((i) => importLine(file, i.from, i.line - 1)),
    '',
    `export const values = [${values.join(', ')}];`,
    ...(types.length > 0 ? [`export type Types = [${types.join(', ')}];`] : []),
    '',
  ].join('\n');
}
fixtures['server/src/bff/cycle/a.ts'] = "import { b } from './b.ts';\n\nexport const a = () => b;\n";
fixtures['server/src/bff/cycle/b.ts'] = "import { a } from './a.ts';\n\nexport const b = () => a;\n";
fixtures['server/src/bff/payments/list/listRoute.ts'] = 'export const x = 1;\n';
fixtures['server/src/bff/payments/list/list_route.ts'] = 'export const x = 1;\n';

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start: { line: number } };
}
let dir = '';
let diagnostics: Diagnostic[] = [];

/** Every fixture linted in one run of `biome lint` with the repository's biome.json. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lint-layers-'));
  const config = JSON.parse(await readFile(join(ROOT, 'biome.json'), 'utf8'));
  config.$schema = undefined;
  config.vcs = { enabled: false };
  await writeFile(join(dir, 'biome.json'), JSON.stringify(config));
  for (const [name, text] of Object.entries(fixtures)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const output = await promisify(execFile)(
    BIOME,
    ['lint', '--reporter=json', '--max-diagnostics=none', '.'],
    {
      cwd: dir,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  diagnostics = JSON.parse(output.stdout).diagnostics;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const found = (file: string, line?: number) =>
  diagnostics
    .filter((d) => d.location.path === file && (line === undefined || d.location.start.line === line))
    .map((d) => `${d.category}: ${d.message}`);

describe('pnpm lint keeps the layers apart', () => {
  it.each(lines.filter((l) => l.zone).map((l) => [l.file, l.from, l] as const))(
    'in %s refuses %s',
    (_file, _from, { file, line, zone }) => {
      const [diagnostic, ...more] = found(file, line);
      expect(diagnostic).toMatch(/^lint\/style\/noRestrictedImports: /);
      expect(diagnostic).toContain(zone && ZONES[zone].says);
      expect(more).toEqual([]);
    },
  );

  it.each(lines.filter((l) => !l.zone).map((l) => [l.file, l.from, l] as const))(
    'in %s allows %s',
    (_file, _from, { file, line }) => {
      expect(found(file, line)).toEqual([]);
    },
  );

  it('refuses an import cycle', () => {
    expect(found('server/src/bff/cycle/a.ts')).toContainEqual(
      expect.stringContaining('lint/suspicious/noImportCycles'),
    );
  });

  it('refuses a file name that is not kebab-case, and accepts kebab-case names with extensions', () => {
    for (const file of ['listRoute.ts', 'list_route.ts'])
      expect(found(`server/src/bff/payments/list/${file}`)).toEqual([
        expect.stringContaining('lint/style/useFilenamingConvention'),
      ]);
    for (const file of ['web/vite.config.ts', 'server/src/config/x.test.ts', 'web/src/main.tsx'])
      expect(found(file).filter((d) => d.includes('useFilenamingConvention'))).toEqual([]);
  });
});
