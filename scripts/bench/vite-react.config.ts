import { defineConfig, type ConfigEnv, type UserConfig } from 'vite'
import base from '../../vite.config'

/**
 * The production build exactly as vite.config.ts makes it, but with React left in place of preact/compat,
 * so that leg 6 weighs the same app on both runtimes. Kept apart from vite.config.ts so that nothing in
 * the real build can switch preact off by accident.
 */
export default defineConfig((env: ConfigEnv) => {
  const config: UserConfig = base(env)
  return { ...config, resolve: { ...config.resolve, alias: [] } }
})
