// Lint: typed rules from style.md guideline 19, and the dependency direction of guideline 2 as
// import-x/no-restricted-paths zones (target may not import from `from`), plus import-x/no-cycle.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const zones = [
  // schemas import zod only
  { target: './src/schemas', from: './src', except: ['./schemas'] },
  // findings: schemas only
  { target: './src/findings', from: './src', except: ['./findings', './schemas'] },
  // reference: schemas, findings, readers (it streams the official files)
  { target: './src/reference', from: './src', except: ['./reference', './schemas', './findings', './readers', './errors.ts'] },
  // engines: schemas, findings, the Reference port type; never http, accounts, pipeline, workers, config, log
  { target: './src/engines', from: ['./src/http', './src/accounts', './src/pipeline', './src/workers', './src/config.ts', './src/log.ts', './src/readers', './src/reports'] },
  { target: './src/readers', from: './src', except: ['./readers', './schemas', './findings', './errors.ts'] },
  { target: './src/reports', from: './src', except: ['./reports', './schemas', './findings', './errors.ts'] },
  { target: './src/workers', from: ['./src/accounts', './src/http', './src/pipeline', './src/config.ts', './src/log.ts'] },
  { target: './src/pipeline', from: ['./src/accounts', './src/http', './src/config.ts', './src/log.ts'] },
  { target: './src/http', from: ['./src/pipeline', './src/workers', './src/config.ts', './src/log.ts'] },
  { target: './src/accounts', from: './src', except: ['./accounts', './schemas', './errors.ts'] },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'coverage/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['.ci/*.js'] }, tsconfigRootDir: new URL('..', import.meta.url).pathname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
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
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config.ts reads process.env.' }],
    },
  },
  {
    files: ['src/engines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['pino', 'better-sqlite3'], patterns: [] }],
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
  { files: ['.ci/*.js', '.ci/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
);
