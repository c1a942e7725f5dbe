import tap, { type Test } from 'tap'

let current: Test | typeof tap = tap

/** Makes `t` in the files imported from now on, and in their helpers, mean `test`. */
export function scopeTo(test: Test): void {
  current = test
}

const scoped = new Proxy(
  {},
  {
    get(_, key) {
      const value: unknown = Reflect.get(current, key, current)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value
    },
    set: (_, key, value) => Reflect.set(current, key, value, current),
    has: (_, key) => Reflect.has(current, key),
  },
)

export default scoped
