// @ts-check
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Any import whose path passes through one of these folders, however many `../` lead there. */
const into = (...folders) => `(^|/)(${folders.join('|')})/`

/**
 * The client takes from the server only what server/schemas exports, as types; the one exception is
 * server/schemas/text.ts, the visible-text rules both sides run on user input (STYLE.md).
 */
const serverFromClient = [
  { regex: `(^|/)server/(?!schemas/)`, message: 'The client imports only from server/schemas.' },
  {
    regex: `(^|/)server/schemas/(?!text\\.js$)`,
    allowTypeImports: true,
    message: 'The client imports the server schemas as types only: `import type`.',
  },
]

/** One layer's forbidden imports (STYLE.md, "The direction of imports"); tests may import anything. */
const layer = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
})

const boundaries = [
  layer(['server/routes/**'], [{ regex: into('store'), message: 'A route reaches the store through a service.' }]),
  layer(
    ['server/mastodon/**'],
    [{ regex: into('store', 'routes'), message: "The Mastodon API translates to and from Chirp's services alone." }],
  ),
  layer(
    ['server/services/**'],
    [{ regex: into('routes', 'plugins'), message: 'A service knows no routes or plugins.' }],
  ),
  layer(
    ['server/store/**'],
    [{ regex: into('services', 'routes', 'plugins'), message: 'The store knows no layer above it.' }],
  ),
  layer(
    ['server/plugins/**'],
    [
      { regex: into('routes'), message: 'A plugin knows no routes.' },
      {
        regex: into('store'),
        allowTypeImports: true,
        message: 'A plugin is handed the store; it imports only its types.',
      },
    ],
  ),
  layer(
    ['client/components/**'],
    [
      {
        regex: into('pages', 'state', 'api', 'live'),
        message: 'A component takes props and calls callbacks; pages hold state and API calls.',
      },
      ...serverFromClient,
    ],
  ),
  layer(
    ['client/pages/*-page.tsx'],
    [{ regex: '^\\./[^/]*-page(\\.js)?$', message: 'A page imports no other page.' }, ...serverFromClient],
  ),
  layer(['client/**'], serverFromClient, ['client/components/**', 'client/pages/*-page.tsx']),
  layer(
    ['common/**'],
    [
      {
        regex: into('server', 'client', 'test'),
        message: 'common/ serves the server and the client, and imports neither.',
      },
    ],
  ),
]

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/', '.tap/', 'test-results/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Async here keeps a promise-returning contract (Fastify plugins and hooks, the store's interface, seeds,
      // tap subtests); dropping it would turn a rejection into a synchronous throw, and Fastify reads a
      // non-async hook as one that calls done().
      '@typescript-eslint/require-await': 'off',
      // It reads an assertion as unneeded when the assertion itself is what infers a generic call's type
      // (`res.json() as { post: Post }`, `getByRole(...) as HTMLButtonElement`, `{} as Record<string, Post>`);
      // its fix then turns those into `any` or `{}` and breaks the typecheck.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // `_name` marks an argument a signature needs but the body does not; `{ secret: _, ...rest }` leaves a key out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  ...boundaries,
  {
    // Plain JavaScript (this file, the bench's bare Fastify server) is outside every tsconfig.
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
)
