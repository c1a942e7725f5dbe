import type { Registration } from '../lib/model.js'

/** What each way of signing up asks of the person, said before the form: nothing, for open sign-ups. */
const NOTICES: Record<Exclude<Registration, 'open'>, string> = {
  approval: 'New accounts are approved by a moderator: you can log in once yours is.',
  invite: 'Chirp is open by invite: you need the code, or the link, that you were given.',
  closed: 'Sign-ups are closed.',
}

export function RegistrationNotice({ mode }: { mode: Registration | null }) {
  if (mode === null || mode === 'open') return null
  return <p className="registration-notice">{NOTICES[mode]}</p>
}
