import { randomBytes } from 'node:crypto'
import { OUT_OF_BAND } from '../services/client-apps.js'
import { escapeHtml } from './account-entity.js'

/** What the sign-in page shows and sends back: the app's request, carried through the form. */
export interface AuthorizeView {
  appName: string
  website: string | null
  scopes: readonly string[]
  /** The request's own parameters, sent back as hidden fields. */
  request: Record<string, string>
  /** A refusal of the last try: wrong password, a second factor missing. */
  problem?: string
  login?: string
}

const SCOPE_WORDS: Record<string, string> = {
  read: 'read everything your account can see',
  write: 'post and change things as you',
  follow: 'follow, block and mute people as you',
  push: 'receive your notifications',
  profile: 'read your profile',
}

const describe = (scope: string) => SCOPE_WORDS[scope] ?? scope.replace(':', ': ')

/** A page with its own policy: nothing but its own form and the nonce-marked style, sending only to `formTargets`. */
function page(title: string, body: string, formTargets: readonly string[]) {
  const nonce = randomBytes(16).toString('base64')
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Chirp</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1.25rem;margin-right:.5rem;padding:.5rem 1.25rem;font:inherit}.problem{color:#a40000}
code{display:block;padding:1rem;background:#f2f2f2;word-break:break-all;font-size:1.1rem}</style></head>
<body><main>${body}</main></body></html>`
  const policy = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ')
  return { html, policy }
}

/**
 * Where the form's answer may send the browser: a redirect after a form is held to `form-action`, so
 * the app's own address (its origin, or its scheme for an app's own link such as `myapp:`) is allowed.
 */
function targetOf(redirectUri: string): string[] {
  if (redirectUri === OUT_OF_BAND || !URL.canParse(redirectUri)) return []
  const url = new URL(redirectUri)
  return url.protocol === 'http:' || url.protocol === 'https:' ? [url.origin] : [url.protocol]
}

/** The page that signs a person in and asks them to let the app act for them. */
export function authorizePage(view: AuthorizeView) {
  const hidden = Object.entries(view.request)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
  const website = view.website ? ` (<a href="${escapeHtml(view.website)}">${escapeHtml(view.website)}</a>)` : ''
  const scopes = view.scopes.map((scope) => `<li>${escapeHtml(describe(scope))}</li>`).join('')
  const body = `<h1>Sign in to authorize ${escapeHtml(view.appName)}</h1>
<p><strong>${escapeHtml(view.appName)}</strong>${website} asks to use your Chirp account. It will be able to:</p>
<ul>${scopes}</ul>
${view.problem ? `<p class="problem" role="alert">${escapeHtml(view.problem)}</p>` : ''}
<form method="post" action="/oauth/authorize">${hidden}
<label>Username or e-mail<input name="username" autocomplete="username" required value="${escapeHtml(view.login ?? '')}"></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label>
<label>Two-factor code (only if two-factor sign-in is on)<input name="otp" autocomplete="one-time-code" inputmode="numeric"></label>
<button type="submit" name="decision" value="approve">Sign in and authorize</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`
  return page(`Authorize ${view.appName}`, body, targetOf(view.request.redirect_uri ?? ''))
}

/** For an app without a redirect: the code, for the person to copy into it. */
export function codePage(appName: string, code: string) {
  const body = `<h1>Authorization code</h1>
<p>Copy this code and paste it into ${escapeHtml(appName)}:</p><code>${escapeHtml(code)}</code>`
  return page('Authorization code', body, [])
}

/** A request the page cannot serve: an unknown app, a redirect it never registered. */
export function problemPage(problem: string) {
  return page('Cannot authorize', `<h1>Cannot authorize this app</h1><p class="problem">${escapeHtml(problem)}</p>`, [])
}
