import { http } from './http.js'
import type { Health, LoginBody, LoginReply, SignupBody, SignupReply } from './types.js'

export function apiLogin(body: LoginBody): Promise<LoginReply> {
  return http<LoginReply>('/auth/login', { method: 'POST', body })
}

export function apiSignup(body: SignupBody): Promise<SignupReply> {
  return http<SignupReply>('/auth/signup', { method: 'POST', body })
}

/** Invalidates the token on the server; the client forgets it either way. */
export async function apiLogout(): Promise<void> {
  await http('/auth/logout', { method: 'POST' })
}

export function apiGetHealth(): Promise<Health> {
  return http<Health>('/health')
}
