// Lint: typed rules from style.md guideline 19, and the dependency direction of guideline 2. The direction is
// checked on import specifiers (no module resolver needed): each layer lists the top-level folders of src/ it must
// not import from. Import cycles are checked by .ci/check-cycles.ts (run by `npm run lint`).
import tseslint from 'typescript-eslint';

const layers = ['schemas', 'findings', 'reference', 'refdata', 'engines', 'readers', 'reports', 'workers', 'pipeline', 'accounts', 'http'];
const entryOnly = ['config', 'log'];

/** A no-restricted-imports pattern forbidding imports of the named src/ folders and root modules. */
function forbid(folders, files = entryOnly, message = 'style.md "Dependency direction"') {
  const parts = [];
  if (folders.length > 0) {
    parts.push(`(^|/)(${folders.join('|')})/`);
  }
  if (files.length > 0) {
    parts.push(`(^|/)(${files.join('|')})\\.js$`);
  }
  return { regex: parts.join('|'), message };
}

const except = (...allowed) => layers.filter((l) => !allowed.includes(l));

/** Per layer: what it must not import (style.md "Dependency direction"). */
const zones = [
  { files: ['src/schemas/**/*.ts'], patterns: [forbid(except('schemas'), [...entryOnly, 'errors'], 'schemas import zod only')] },
  { files: ['src/findings/**/*.ts'], patterns: [forbid(except('schemas', 'findings'), [...entryOnly, 'errors'])] },
  {
    files: ['src/reference/**/*.ts'],
    patterns: [
      forbid(except('schemas', 'findings', 'reference'), entryOnly, 'the read port imports no build-time code (src/refdata, readers)'),
      { group: ['csv-parse', 'saxes', 'node-stream-zip'], message: 'the read port parses no source files: that is src/refdata' },
    ],
  },
  { files: ['src/refdata/**/*.ts'], patterns: [forbid(except('schemas', 'findings', 'reference', 'readers', 'refdata'))] },
  {
    files: ['src/engines/**/*.ts'],
    patterns: [
      forbid(except('schemas', 'findings', 'reference', 'engines'), entryOnly, 'engines are pure: no I/O layers, config or logger'),
      { group: ['pino', 'better-sqlite3', 'node:fs', 'node:fs/promises'], message: 'engines are pure: no I/O' },
      { regex: '(^|/)reference/', allowTypeImports: true, message: 'engines take the Reference port as a parameter: import its types only' },
    ],
  },
  { files: ['src/readers/**/*.ts'], patterns: [forbid(except('schemas', 'findings', 'readers'))] },
  { files: ['src/reports/**/*.ts'], patterns: [forbid(except('schemas', 'findings', 'reports'))] },
  { files: ['src/workers/**/*.ts'], patterns: [forbid(['accounts', 'http', 'pipeline', 'refdata'])] },
  { files: ['src/pipeline/**/*.ts'], patterns: [forbid(['accounts', 'http'])] },
  { files: ['src/accounts/**/*.ts'], patterns: [forbid(except('schemas', 'accounts'))] },
  { files: ['src/http/**/*.ts'], patterns: [forbid(['pipeline', 'workers', 'refdata'])] },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'coverage/**', 'dist/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['.ci/*.js'] }, tsconfigRootDir: new URL('..', import.meta.url).pathname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/explicit-function-return-type': ['error', { allowExpressions: true, allowTypedFunctionExpressions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Loaders implement a Promise-returning contract; some need no await, and wrapping them adds nothing.
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Named exports only (style.md 16).' }],
    },
  },
  ...zones.map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config.ts reads process.env.' }],
    },
  },
  {
    files: ['test/**/*.ts', '.ci/*.ts'],
    rules: {
      '@typescript-eslint/explicit-function-return-type': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': 'off',
    },
  },
  { files: ['.ci/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['.ci/*.js'], rules: { '@typescript-eslint/explicit-function-return-type': 'off' } },
  { files: ['.ci/*.js', '.ci/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // The worker bootstrap for TypeScript sources is plain JavaScript outside the TypeScript project.
  {
    files: ['src/workers/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
);
