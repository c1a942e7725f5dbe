import { readdir, readFile } from 'node:fs/promises'

const STYLES = new URL('../../client/styles/', import.meta.url)

export type StyleRule = {
  selector: string
  /** The at-rules the rule sits in, outermost first. */
  within: string[]
  declarations: Map<string, string>
}

/** Every rule of a stylesheet whose only nesting is at-rules; at-rules themselves are not listed. */
export function rules(css: string): StyleRule[] {
  const found: StyleRule[] = []
  const open: string[] = []
  let text = ''
  for (const char of css.replace(/\/\*[\s\S]*?\*\//g, '')) {
    if (char === '{') {
      const prelude = text.trim().replace(/\s+/g, ' ')
      if (!prelude.startsWith('@')) found.push({ selector: prelude, within: [...open], declarations: new Map() })
      open.push(prelude)
      text = ''
    } else if (char === '}') {
      if (!open.pop()?.startsWith('@')) declare(found.at(-1), text)
      text = ''
    } else if (char === ';') {
      declare(found.at(-1), text)
      text = ''
    } else {
      text += char
    }
  }
  return found
}

function declare(rule: StyleRule | undefined, text: string) {
  const colon = text.indexOf(':')
  if (rule && colon > 0) rule.declarations.set(text.slice(0, colon).trim(), text.slice(colon + 1).trim())
}

/** The rules of every stylesheet in client/styles, each with the file it is in. */
export async function allRules(): Promise<(StyleRule & { file: string })[]> {
  const files = (await readdir(STYLES)).filter((name) => name.endsWith('.css')).sort()
  const found = []
  for (const file of files) {
    for (const rule of rules(await readFile(new URL(file, STYLES), 'utf8'))) found.push({ file, ...rule })
  }
  return found
}
