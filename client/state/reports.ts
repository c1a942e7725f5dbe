import { apiReport } from '../api/moderation.js'
import type { ReportBody } from '../api/types.js'
import { showError, showToast } from './toasts.js'

/** What a report is about: a post, a comment (with its post) or a person. */
export type ReportTarget = Pick<ReportBody, 'targetType' | 'targetId' | 'postId'>

/**
 * Sends a report; true when it went. A refusal says why in a toast, in the words its code picks
 * (api/error-text.ts), and a 429 says how long to wait.
 */
export async function sendReport(target: ReportTarget, category: ReportBody['category'], comment: string) {
  try {
    const text = comment.trim()
    await apiReport({ ...target, category, ...(text === '' ? {} : { comment: text }) })
    showToast('Thanks, your report was sent. A moderator will look at it.', 'success')
    return true
  } catch (error) {
    showError(error, undefined, 'send this report')
    return false
  }
}
