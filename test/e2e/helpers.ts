import { randomBytes } from 'node:crypto'
import type { Locator, Page } from 'playwright-core'
import type { E2E, Session } from './harness.js'

export const GUEST = { username: 'guest', password: 'guestpassword' } as const

export interface NewUser extends Session {
  firstName: string
  lastName: string
  fullName: string
  password: string
}

/** Fixture set-up goes straight to the API; the journeys themselves only click and type. */
export async function call<T>(
  e2e: Pick<E2E, 'baseURL'>,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const res = await fetch(`${e2e.baseURL}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text) as T
}

/** A username no other journey uses: 3 to 30 of letters, digits, `_` and `.`. */
export function uniqueUsername(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`.slice(0, 30)
}

export async function login(e2e: E2E, username: string, password: string): Promise<Session> {
  const reply = await call<{ encodedToken: string; foundUser: { username: string } }>(e2e, 'POST', '/api/auth/login', {
    username,
    password,
  })
  return { token: reply.encodedToken, username: reply.foundUser.username }
}

/** Fills the signup form for `username`, named `first` `last`; the button is left to the journey. */
export async function fillSignup(page: Page, username: string, first: string, last: string): Promise<void> {
  await page.getByLabel('First Name').fill(first)
  await page.getByLabel('Last Name').fill(last)
  await page.getByLabel('Email').fill(`${username}@example.com`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill('a-long-password')
}

/** A brand-new account: it follows nobody, has no posts and no bookmarks. */
export async function signupUser(e2e: Pick<E2E, 'baseURL'>, prefix: string): Promise<NewUser> {
  const username = uniqueUsername(prefix)
  const user = { firstName: 'Eve', lastName: `Tester${randomBytes(2).toString('hex')}`, password: 'e2e-password-1' }
  const reply = await call<{ encodedToken: string }>(e2e, 'POST', '/api/auth/signup', {
    username,
    password: user.password,
    firstName: user.firstName,
    lastName: user.lastName,
    email: `${username}@example.com`,
  })
  return { ...user, username, token: reply.encodedToken, fullName: `${user.firstName} ${user.lastName}` }
}

/**
 * Someone new (named from `prefix`) with one post, `text` or "Posted by <username>", whom `reader` follows,
 * so the post is in the reader's home feed too.
 */
export async function followedAuthor(
  e2e: E2E,
  reader: NewUser,
  prefix = 'author',
  text?: (username: string) => string,
) {
  const author = await signupUser(e2e, prefix)
  const content = text ? text(author.username) : `Posted by ${author.username}`
  await call(e2e, 'POST', '/api/posts', { postData: { content } }, author.token)
  const { user } = await call<{ user: { _id: string } }>(
    e2e,
    'GET',
    `/api/users/${author.username}`,
    undefined,
    reader.token,
  )
  await call(e2e, 'POST', `/api/users/follow/${user._id}`, {}, reader.token)
  return { author, text: content }
}

/** The id of the seeded post whose text starts with `content`. */
export async function postIdByContent(e2e: E2E, content: string): Promise<string> {
  const { posts } = await call<{ posts: { _id: string; content: string }[] }>(e2e, 'GET', '/api/posts')
  const post = posts.find((p) => p.content.startsWith(content))
  if (!post) throw new Error(`no post starts with "${content}"`)
  return post._id
}

/** A real image drawn by the browser's own canvas, as a file to hand to a file input. */
export async function drawImage(page: Page, mimeType: 'image/png' | 'image/jpeg') {
  const dataUrl = await page.evaluate((type) => {
    const canvas = document.createElement('canvas')
    canvas.width = 96
    canvas.height = 64
    const ctx = canvas.getContext('2d')
    if (!ctx) throw new Error('no 2d canvas')
    const gradient = ctx.createLinearGradient(0, 0, 96, 64)
    gradient.addColorStop(0, '#1d9bf0')
    gradient.addColorStop(1, '#f91880')
    ctx.fillStyle = gradient
    ctx.fillRect(0, 0, 96, 64)
    return canvas.toDataURL(type)
  }, mimeType)
  const buffer = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
  return { name: mimeType === 'image/png' ? 'drawing.png' : 'drawing.jpg', mimeType, buffer }
}

/** The post card that shows `text`. */
export function postCard(page: Page, text: string): Locator {
  return page.getByRole('article').filter({ hasText: text })
}

/** Resolves when the image has really loaded (a broken image has no natural width). */
export async function imageLoaded(image: Locator): Promise<boolean> {
  await image.waitFor()
  await image.scrollIntoViewIfNeeded()
  return image.evaluate(async (img: HTMLImageElement) => {
    if (!img.complete) {
      await new Promise((resolve) => {
        img.addEventListener('load', resolve, { once: true })
        img.addEventListener('error', resolve, { once: true })
      })
    }
    return img.naturalWidth > 0
  })
}

/** Waits until the page's path (and query, when given) is `expected`. */
export async function waitForPath(page: Page, expected: string): Promise<void> {
  await page.waitForURL((url) => (expected.includes('?') ? url.pathname + url.search : url.pathname) === expected)
}

/** A link of the left navigation (Home, Explore, Bookmark, Profile). */
export function navLink(page: Page, label: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true })
}
