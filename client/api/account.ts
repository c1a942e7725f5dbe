import { http } from './http.js'
import type { ImportReply, TokenReply, TwoFactorEnableReply, TwoFactorSetup, TwoFactorStatus } from './types.js'

/** The account's own calls (docs/api-contract.md §4). */

export function apiChangePassword(currentPassword: string, newPassword: string): Promise<TokenReply> {
  return http<TokenReply>('/account/password', { method: 'POST', body: { currentPassword, newPassword } })
}

export async function apiLogoutAll(): Promise<void> {
  await http('/auth/logout-all', { method: 'POST' })
}

export function apiTwoFactorStatus(): Promise<TwoFactorStatus> {
  return http<TwoFactorStatus>('/account/2fa')
}

export function apiSetupTwoFactor(): Promise<TwoFactorSetup> {
  return http<TwoFactorSetup>('/account/2fa/setup', { method: 'POST' })
}

export function apiEnableTwoFactor(code: string): Promise<TwoFactorEnableReply> {
  return http<TwoFactorEnableReply>('/account/2fa/enable', { method: 'POST', body: { code } })
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

/** The account's archive, a zip: fetched with the token, as a link could not carry it. */
export function apiExportAccount(): Promise<Blob> {
  return http('/account/export', { responseType: 'blob' })
}

/** A Chirp archive or one of Mastodon's lists, as multipart field `file`. */
export function apiImportAccount(file: File): Promise<ImportReply> {
  const form = new FormData()
  form.append('file', file)
  return http<ImportReply>('/account/import', { method: 'POST', body: form })
}

export async function apiDeleteAccount(password: string): Promise<void> {
  await http('/account', { method: 'DELETE', body: { password } })
}
