import { useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { DEFAULT_VISIBILITY, QUOTE_POLICIES, type QuotePolicy } from '../../../common/audience.js'
import type { Visibility } from '../../api/types.js'
import { AudiencePicker } from '../../components/audience-picker.js'
import { setAccountLocked } from '../../state/follows.js'
import { session } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { editProfile } from '../../state/users.js'

/** The quote controls' choices (DECISIONS §15), each with what it means. */
const QUOTING: Record<QuotePolicy, { label: string; hint: string }> = {
  anyone: { label: 'Anyone', hint: 'Anyone who can see a post of yours can quote it.' },
  followers: { label: 'Only my followers', hint: 'Only the people who follow you can quote your posts.' },
  nobody: { label: 'Nobody', hint: 'Nobody but you can quote your posts.' },
}

/**
 * Who sees what I write (DECISIONS §12): the audience a new post starts with, whether following me
 * takes my approval, and who may quote my posts. Each is saved as soon as it changes.
 */
export function AudienceSection() {
  const { user } = useSnapshot(session)
  const [saving, setSaving] = useState(false)
  // The box shows the choice at once; the saved state takes over when the answer comes (or the old
  // one, when it fails).
  const [lockChosen, setLockChosen] = useState<boolean | null>(null)
  const lockId = useId()
  const lockHintId = useId()
  const quoteId = useId()
  const quoteHintId = useId()
  if (!user) return null
  const quotePolicy = user.quotePolicy ?? 'anyone'
  const locked = lockChosen ?? user.locked === true

  const save = async (change: () => Promise<boolean>, done: string) => {
    setSaving(true)
    const ok = await change().finally(() => setSaving(false))
    if (ok) showToast(done, 'success')
  }
  const setDefault = (visibility: Visibility) =>
    void save(() => editProfile({ defaultVisibility: visibility }), 'Your default audience was saved')
  const setQuotePolicy = (policy: QuotePolicy) =>
    void save(() => editProfile({ quotePolicy: policy }), 'Who can quote your posts was saved')
  const setLocked = (lock: boolean) => {
    setLockChosen(lock)
    void save(
      () => setAccountLocked(lock),
      lock ? 'Your account is locked' : 'Your account is unlocked: the requests waiting were accepted',
    ).finally(() => setLockChosen(null))
  }

  return (
    <>
      <p>New posts go to this audience unless you choose another one in the composer.</p>
      <AudiencePicker
        label="Default audience"
        value={user.defaultVisibility ?? DEFAULT_VISIBILITY}
        disabled={saving}
        onChange={setDefault}
      />
      <div className="setting-toggle">
        <input
          id={lockId}
          type="checkbox"
          checked={locked}
          disabled={saving}
          aria-describedby={lockHintId}
          onChange={(event) => setLocked(event.currentTarget.checked)}
        />
        <label htmlFor={lockId}>Lock account</label>
      </div>
      <p id={lockHintId} className="form-note">
        {locked
          ? 'People ask to follow you, and you accept or decline each request. Unlocking accepts every request still waiting.'
          : 'Anyone can follow you. Lock your account to approve each follower: only the people you accept see your followers-only posts.'}
      </p>
      <div className="audience-picker">
        <div className="audience-choice">
          <label htmlFor={quoteId}>Who can quote my posts</label>
          <select
            id={quoteId}
            value={quotePolicy}
            disabled={saving}
            aria-describedby={quoteHintId}
            onChange={(event) => {
              const chosen = QUOTE_POLICIES.find((policy) => policy === event.currentTarget.value)
              if (chosen) setQuotePolicy(chosen)
            }}
          >
            {QUOTE_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {QUOTING[policy].label}
              </option>
            ))}
          </select>
        </div>
        <p id={quoteHintId} className="form-note audience-hint">
          {QUOTING[quotePolicy].hint} This applies to all your posts, old and new.
        </p>
      </div>
    </>
  )
}
