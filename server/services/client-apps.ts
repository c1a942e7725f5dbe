import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { AppError, MSG, OAuthError, notFound } from '../errors.js'
import type { AppRecord, AuthorizationCodeRecord, TokenHolder } from '../store/types.js'

export type { AppRecord }
import { createAppGrants, type AppGrant } from './app-grants.js'
import type { AuthService } from './auth.js'
import type { ServiceDeps } from './deps.js'
import { parseScopes, withinScopes } from './scopes.js'

/** The redirect of an app that shows the code to its person instead (RFC 8252's out-of-band value). */
export const OUT_OF_BAND = 'urn:ietf:wg:oauth:2.0:oob'

/** How long an authorization code may wait to be traded. */
const CODE_SECONDS = 600

/** A token that stands for an app alone (the client_credentials grant): it acts for nobody. */
export interface AppTokenPayload {
  /** The app's client_id. */
  app: string
  scope: string
  jti: string
}

export interface ClientAppsDeps extends ServiceDeps {
  auth: AuthService
  signAppToken: (payload: AppTokenPayload) => string
  /** How long a token lasts, in seconds (JWT_EXPIRES_IN). */
  tokenSeconds: number
}

/** An app the person authorised, as Settings lists it: since when, and with which scopes in all. */
export interface AuthorisedApp {
  id: string
  name: string
  website: string | null
  scopes: string[]
  /** When the earliest token it still holds was given. */
  authorisedAt: string
  /** When the latest one was. */
  lastGrantedAt: string
}

export interface NewApp {
  name: string
  website?: string | undefined
  redirectUris: readonly string[]
  scopes?: string | undefined
}

export interface AuthorizationRequest {
  clientId: string
  redirectUri: string
  scope?: string | undefined
  codeChallenge?: string | undefined
  codeChallengeMethod?: string | undefined
}

/** A request the sign-in page may serve: its app, and the scopes it asks for. */
export interface CheckedRequest {
  app: AppRecord
  redirectUri: string
  scopes: string[]
  codeChallenge: string | null
}

export interface TokenGrant {
  accessToken: string
  scope: string
  createdAt: number
}

const secret = () => randomBytes(32).toString('base64url')
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url')

/** Whether two texts are equal, in a time that does not tell how much of them matched. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** A redirect an app may register: the out-of-band value, or an absolute URL without a fragment. */
function isRedirectUri(uri: string): boolean {
  if (uri === OUT_OF_BAND) return true
  if (!URL.canParse(uri)) return false
  const url = new URL(uri)
  return url.hash === '' && !['javascript:', 'data:', 'vbscript:', 'file:'].includes(url.protocol)
}

const invalidScope = () =>
  new OAuthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.')
const invalidClient = () =>
  new OAuthError(401, 'invalid_client', 'Client authentication failed due to unknown client or wrong secret.')
const invalidGrant = (
  why = 'The provided authorization grant is invalid, expired, revoked or was issued to another client.',
) => new OAuthError(400, 'invalid_grant', why)

/**
 * The apps of the Mastodon client API and the OAuth 2 grants that give them tokens (DECISIONS §13). A
 * token given to a person's app is a Chirp session of that person (services/auth.ts), carrying the
 * scopes granted: logging out everywhere, a new password or a suspension ends it like any other.
 */
export function createClientAppsService({ store, now, auth, signAppToken, tokenSeconds }: ClientAppsDeps) {
  const grants = createAppGrants(store, now)

  /** A token of the person for the app, noted so that Settings can list the app and end it. */
  const grantOf = async (app: AppRecord, holder: TokenHolder, scopes: readonly string[]): Promise<TokenGrant> => {
    const scope = scopes.join(' ')
    const at = now()
    const tokenId = randomUUID()
    await grants.add({
      userId: holder._id,
      tokenId,
      appId: app._id,
      scopes: [...scopes],
      tokenVersion: holder.tokenVersion,
      grantedAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + tokenSeconds * 1000).toISOString(),
    })
    return {
      accessToken: auth.grantToken(holder, { scope, app: app._id, jti: tokenId }),
      scope,
      createdAt: Math.floor(at.getTime() / 1000),
    }
  }

  /** The scopes asked for, or the refusal when one is unknown or beyond what the app registered. */
  const scopesFor = (app: AppRecord, asked: string | undefined) => {
    const scopes = asked === undefined || asked.trim() === '' ? [...app.scopes] : parseScopes(asked)
    if (!scopes || !withinScopes(scopes, app.scopes)) throw invalidScope()
    return scopes
  }

  return {
    /** A new app, and its secret, shown this once. */
    async register(body: NewApp): Promise<{ app: AppRecord; clientSecret: string }> {
      const name = body.name.trim()
      if (name === '') throw new AppError(422, "Validation failed: Application name can't be blank")
      if (body.redirectUris.length === 0 || !body.redirectUris.every(isRedirectUri)) {
        throw new AppError(422, 'Validation failed: Redirect URI must be an absolute URI.')
      }
      const scopes = parseScopes(body.scopes)
      if (!scopes) throw new AppError(422, 'Validation failed: Scopes must be a subset of the known scopes.')
      const website = body.website?.trim() ? body.website.trim() : null
      const clientSecret = secret()
      const app: AppRecord = {
        _id: secret(),
        secretHash: hashOf(clientSecret),
        name,
        website,
        redirectUris: [...new Set(body.redirectUris)],
        scopes,
        createdAt: now().toISOString(),
      }
      await store.transaction((tx) => tx.createApp(app))
      return { app, clientSecret }
    },

    async getApp(clientId: string) {
      return store.getApp(clientId)
    },

    /** How many people and posts the community has, for the instance's description. */
    community() {
      return store.countCommunity()
    },

    /** The app whose id and secret these are; invalid_client otherwise. */
    async authenticate(clientId: string | undefined, clientSecret: string | undefined): Promise<AppRecord> {
      const app = clientId ? await store.getApp(clientId) : undefined
      if (!app || clientSecret === undefined || !sameText(hashOf(clientSecret), app.secretHash)) throw invalidClient()
      return app
    },

    /** What the sign-in page checks before it shows anything: a known app, its own redirect, scopes it may have. */
    async checkRequest(request: AuthorizationRequest): Promise<CheckedRequest> {
      const app = await store.getApp(request.clientId)
      if (!app) throw invalidClient()
      if (!app.redirectUris.includes(request.redirectUri)) {
        throw new OAuthError(400, 'invalid_request', 'The redirect uri included is not valid.')
      }
      const scopes = scopesFor(app, request.scope)
      if (request.codeChallenge !== undefined && request.codeChallengeMethod !== 'S256') {
        throw new OAuthError(400, 'invalid_request', 'The code challenge method must be S256.')
      }
      return { app, redirectUri: request.redirectUri, scopes, codeChallenge: request.codeChallenge ?? null }
    },

    /** The person approved the request: a code for the app, good once, for ten minutes. */
    async approve(request: CheckedRequest, userId: string): Promise<string> {
      const code = secret()
      const at = now()
      const record: AuthorizationCodeRecord = {
        _id: hashOf(code),
        appId: request.app._id,
        userId,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        codeChallenge: request.codeChallenge,
        expiresAt: new Date(at.getTime() + CODE_SECONDS * 1000).toISOString(),
        createdAt: at.toISOString(),
      }
      await store.transaction((tx) => tx.addAuthorizationCode(record, at.toISOString()))
      return code
    },

    /** The authorization_code grant, with the PKCE verifier when the request had a challenge. */
    async tradeCode(app: AppRecord, code: string, redirectUri: string | undefined, verifier: string | undefined) {
      const at = now().toISOString()
      const record = await store.transaction((tx) => tx.takeAuthorizationCode(hashOf(code), at))
      if (!record || record.appId !== app._id) throw invalidGrant()
      if (redirectUri !== undefined && redirectUri !== record.redirectUri) throw invalidGrant()
      if (
        record.codeChallenge !== null &&
        (verifier === undefined || !sameText(hashOf(verifier), record.codeChallenge))
      ) {
        throw invalidGrant('The code verifier does not match the code challenge.')
      }
      const holder = await store.getTokenHolder(record.userId)
      if (!holder) throw invalidGrant()
      return await grantOf(app, holder, record.scopes)
    },

    /** The password grant: a username or an e-mail address, and the password, with every check of a login. */
    async passwordGrant(app: AppRecord, login: string, password: string, scope: string | undefined) {
      const scopes = scopesFor(app, scope)
      try {
        return await grantOf(app, await auth.checkSignIn(login, password), scopes)
      } catch (error) {
        if (error instanceof AppError) throw invalidGrant(error.message)
        throw error
      }
    },

    /**
     * A token for someone the app just signed up (POST /api/v1/accounts with the app's own token), with
     * that token's scopes, as if they had signed in through the app.
     */
    async signupGrant(appId: string, scopes: readonly string[], userId: string) {
      const [app, holder] = await Promise.all([store.getApp(appId), store.getTokenHolder(userId)])
      if (!app) throw invalidClient()
      if (!holder) throw invalidGrant()
      return grantOf(app, holder, scopes)
    },

    /** The apps holding a token of the person now, the most recently authorised first. */
    async authorised(userId: string): Promise<AuthorisedApp[]> {
      const holder = await store.getTokenHolder(userId)
      if (!holder) return []
      const byApp = new Map<string, AppGrant[]>()
      for (const grant of await grants.live(holder, (tokenId) => store.isTokenRevoked(tokenId))) {
        byApp.set(grant.appId, [...(byApp.get(grant.appId) ?? []), grant])
      }
      const apps = await Promise.all(
        [...byApp].map(async ([appId, held]): Promise<AuthorisedApp | undefined> => {
          const app = await store.getApp(appId)
          if (!app) return undefined
          const times = held.map((grant) => grant.grantedAt).sort()
          return {
            id: app._id,
            name: app.name,
            website: app.website,
            scopes: [...new Set(held.flatMap((grant) => grant.scopes))],
            authorisedAt: times[0] ?? '',
            lastGrantedAt: times.at(-1) ?? '',
          }
        }),
      )
      return apps
        .filter((app): app is AuthorisedApp => app !== undefined)
        .sort((a, b) => b.lastGrantedAt.localeCompare(a.lastGrantedAt))
    },

    /**
     * Ends every token the app holds for the person, as a logout of each; answers their ids, so that
     * their streams close too. Not found when the app holds none.
     */
    async revoke(userId: string, appId: string): Promise<string[]> {
      const taken = await grants.take(userId, appId)
      if (taken.length === 0) throw notFound(MSG.appNotAuthorised)
      for (const grant of taken) await auth.logout({ _id: grant.tokenId, userId, expiresAt: grant.expiresAt })
      return taken.map((grant) => grant.tokenId)
    },

    /** The client_credentials grant: a token of the app itself, which acts for nobody. */
    clientToken(app: AppRecord, scope: string | undefined): TokenGrant {
      const scopes = scopesFor(app, scope)
      return {
        accessToken: signAppToken({ app: app._id, scope: scopes.join(' '), jti: randomUUID() }),
        scope: scopes.join(' '),
        createdAt: Math.floor(now().getTime() / 1000),
      }
    },
  }
}

export type ClientAppsService = ReturnType<typeof createClientAppsService>
