import { FetchError } from 'ofetch'
import { callError, http, upload, type UploadProgress } from './http.js'
import type {
  AuthorisedApp,
  NotificationSettings,
  ImportReply,
  TokenReply,
  TwoFactorEnableReply,
  TwoFactorSetup,
  TwoFactorStatus,
} from './types.js'

/** The account's own calls (docs/api-contract.md §4). */

export function apiChangePassword(currentPassword: string, newPassword: string): Promise<TokenReply> {
  return http<TokenReply>('/account/password', { method: 'POST', body: { currentPassword, newPassword } })
}

export async function apiLogoutAll(): Promise<void> {
  await http('/auth/logout-all', { method: 'POST' })
}

/** The Mastodon apps holding a token of mine now. */
export async function apiAuthorisedApps(): Promise<AuthorisedApp[]> {
  return (await http<{ apps: AuthorisedApp[] }>('/account/apps')).apps
}

/** Ends every token the app holds for me. */
export async function apiRevokeApp(id: string): Promise<void> {
  await http(`/account/apps/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

export function apiTwoFactorStatus(): Promise<TwoFactorStatus> {
  return http<TwoFactorStatus>('/account/2fa')
}

export function apiSetupTwoFactor(): Promise<TwoFactorSetup> {
  return http<TwoFactorSetup>('/account/2fa/setup', { method: 'POST' })
}

export function apiEnableTwoFactor(password: string, code: string): Promise<TwoFactorEnableReply> {
  return http<TwoFactorEnableReply>('/account/2fa/enable', { method: 'POST', body: { code, password } })
}

export async function apiDisableTwoFactor(password: string, code: string): Promise<void> {
  await http('/account/2fa/disable', { method: 'POST', body: { password, code } })
}

export async function apiRequestPasswordReset(email: string): Promise<void> {
  await http('/auth/password-reset', { method: 'POST', body: { email } })
}

export async function apiConfirmPasswordReset(token: string, newPassword: string): Promise<void> {
  await http('/auth/password-reset/confirm', { method: 'POST', body: { token, newPassword } })
}

/**
 * The account's archive, a zip: fetched with the token, as a link could not carry it, and read as it
 * streams in so `onProgress` hears the bytes received so far (the zip is built as it is sent, so its
 * size is not known ahead).
 */
export async function apiExportAccount(onProgress: (received: number) => void = () => {}): Promise<Blob> {
  let body: ReadableStream<Uint8Array> | undefined
  try {
    body = await http<ReadableStream<Uint8Array>, 'stream'>('/account/export', { responseType: 'stream' })
  } catch (error) {
    // A refusal's body came as a stream too: read it, so its message and code are known.
    if (error instanceof FetchError && error.data instanceof ReadableStream) {
      const text = await new Response(error.data as ReadableStream<Uint8Array>).text()
      let data: unknown
      try {
        data = JSON.parse(text)
      } catch {
        data = undefined
      }
      throw callError(error.statusCode, data, error.response?.headers ?? new Headers())
    }
    throw error
  }
  const chunks: Uint8Array[] = []
  let received = 0
  if (body) {
    const reader = body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      received += value.byteLength
      onProgress(received)
    }
  }
  return new Blob(chunks as BlobPart[], { type: 'application/zip' })
}

/**
 * A Chirp archive or one of Mastodon's lists, as multipart field `file`: `onProgress` hears the upload
 * go, `onUploaded` when it is all sent and the server is importing.
 */
export function apiImportAccount(
  file: File,
  handlers: { onProgress?: (progress: UploadProgress) => void; onUploaded?: () => void } = {},
): Promise<ImportReply> {
  const form = new FormData()
  form.append('file', file)
  return upload<ImportReply>('/account/import', form, handlers)
}

export async function apiDeleteAccount(password: string): Promise<void> {
  await http('/account', { method: 'DELETE', body: { password } })
}

/** Which kinds of notification I am mailed and pushed about (DECISIONS §15). */
export function apiNotificationSettings(): Promise<NotificationSettings> {
  return http<NotificationSettings>('/account/notifications')
}

/** Turns the kinds named on or off; the answer is every toggle as it now is. */
export function apiSetNotificationSettings(changes: {
  email?: Partial<NotificationSettings['email']>
  push?: Partial<NotificationSettings['push']>
}): Promise<NotificationSettings> {
  return http<NotificationSettings>('/account/notifications', { method: 'PUT', body: changes })
}
