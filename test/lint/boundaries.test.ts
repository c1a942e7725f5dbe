import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import t from 'tap'

/**
 * The import boundaries of eslint.config.js (STYLE.md, "The direction of imports"), each tried with an
 * import that crosses it and one that does not, so a change to the config cannot switch one off unseen.
 */
const RULE = '@typescript-eslint/no-restricted-imports'
const root = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: 'eslint.config.js',
  // Only the boundary rule, and so no type information: a program of the whole tree is not needed.
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
})

async function crossings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {}\n`, { filePath: `${root}/${file}` })
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message)
}

const cases: Array<[string, string, string, boolean]> = [
  [
    'a route importing the store',
    'server/routes/probe.ts',
    "import { EmbeddedStore } from '../store/embedded-store.js'",
    true,
  ],
  ['a route importing store types', 'server/routes/probe.ts', "import type { Store } from '../store/types.js'", true],
  [
    'a route importing a service',
    'server/routes/probe.ts',
    "import type { PostsService } from '../services/posts.js'",
    false,
  ],
  ['a service importing a route', 'server/services/probe.ts', "import { ERRORS } from '../routes/shared.js'", true],
  [
    'a service importing a plugin',
    'server/services/probe.ts',
    "import { redactUrl } from '../plugins/redact-url.js'",
    true,
  ],
  [
    'a service importing the store',
    'server/services/probe.ts',
    "import type { Store } from '../store/types.js'",
    false,
  ],
  [
    'the store importing a service',
    'server/store/probe.ts',
    "import { createPostsService } from '../services/posts.js'",
    true,
  ],
  ['the pg store importing a route', 'server/store/pg/probe.ts', "import routes from '../../routes/posts.js'", true],
  [
    'the store importing a plugin',
    'server/store/probe.ts',
    "import type { EventsHub } from '../plugins/events.js'",
    true,
  ],
  ['a plugin importing a route', 'server/plugins/probe.ts', "import routes from '../routes/events.js'", true],
  [
    'a plugin importing the store',
    'server/plugins/probe.ts',
    "import { EmbeddedStore } from '../store/embedded-store.js'",
    true,
  ],
  [
    'a plugin importing store types',
    'server/plugins/probe.ts',
    "import type { TicketStore } from '../store/types.js'",
    false,
  ],
  [
    'a component importing a page',
    'client/components/probe.tsx',
    "import { HomePage } from '../pages/home-page.js'",
    true,
  ],
  ['a component importing state', 'client/components/probe.tsx', "import { session } from '../state/session.js'", true],
  [
    'a component importing the API',
    'client/components/probe.tsx',
    "import { apiLikePost } from '../api/posts.js'",
    true,
  ],
  ['a component importing a component', 'client/components/probe.tsx', "import { Avatar } from './avatar.js'", false],
  ['a page importing another page', 'client/pages/probe-page.tsx', "import { LoginPage } from './login-page.js'", true],
  [
    'a page importing a component',
    'client/pages/probe-page.tsx',
    "import { Avatar } from '../components/avatar.js'",
    false,
  ],
  [
    'a page importing a page helper',
    'client/pages/probe-page.tsx',
    "import { useReturnPath } from './use-return-path.js'",
    false,
  ],
  [
    'the client importing a schema value',
    'client/lib/probe.ts',
    "import { PostSchema } from '../../server/schemas/posts.js'",
    true,
  ],
  ['common importing the server', 'common/probe.ts', "import { MSG } from '../server/errors.js'", true],
  ['common importing the client', 'common/probe.ts', "import { paths } from '../client/paths.js'", true],
  [
    'the client importing the messages',
    'client/lib/probe.ts',
    "import { uploadNotImage } from '../../common/messages.js'",
    false,
  ],
  [
    'a service importing the messages',
    'server/services/probe.ts',
    "import { postNotFound } from '../../common/messages.js'",
    false,
  ],
  [
    'the client importing schema types',
    'client/lib/probe.ts',
    "import type { Post } from '../../server/schemas/posts.js'",
    false,
  ],
  [
    'the client importing the text rules',
    'client/pages/probe-page.tsx',
    "import { nameProblem } from '../../server/schemas/text.js'",
    false,
  ],
  [
    'the client importing server code',
    'client/state/probe.ts',
    "import type { Store } from '../../server/store/types.js'",
    true,
  ],
  [
    'a component importing server code',
    'client/components/probe.tsx',
    "import { MSG } from '../../server/errors.js'",
    true,
  ],
  [
    'a test importing anything',
    'test/server/probe.test.ts',
    "import { LowdbStore } from '../../server/store/lowdb-store.js'",
    false,
  ],
]

for (const [what, file, code, refused] of cases) {
  await t.test(what, async (t) => {
    t.strictSame(await crossings(file, code), refused ? [RULE] : [], refused ? 'refused' : 'allowed')
  })
}
