import { mayNameUpload } from '../media/media-urls.js'
import type { ClaimedJob, StoreReader, StoreTx } from '../store/types.js'
import { newJob } from './jobs.js'
import type { MediaService } from './media.js'

/**
 * Uploads go when their last use goes (DECISIONS §16). A write that takes a use of an image away (a
 * post deleted, or edited to another image or link; an avatar or banner replaced or taken off; a card
 * replaced; an account deleted; a report resolved) enqueues a `media-delete` job for the URL in its own
 * transaction, so the job exists exactly when the write does. The job deletes the object once nothing
 * shows it under any of its URLs (Store.isMediaUsed: a post's image or card, an avatar, a banner, or the
 * snapshot an open report keeps as evidence); finding it still shown, it leaves it, and the write that
 * takes that use away enqueues another. Deleting an object already gone is no error, so a job run twice
 * deletes once.
 */

/** Enqueues, in the transaction that takes these uses away, a job for each URL that may be one of this server's uploads. */
export async function dropUploads(tx: StoreTx, urls: Iterable<string | null | undefined>, at: string): Promise<void> {
  const dropped = new Set<string>()
  for (const url of urls) if (url && mayNameUpload(url)) dropped.add(url)
  for (const url of dropped) await tx.enqueueJob(newJob('media-delete', { url }, at), at)
}

/** Every string in a report's snapshot that may name an upload: the post's image and card, the author's avatar, a quote's. */
export function uploadsShownIn(snapshot: unknown): string[] {
  if (typeof snapshot === 'string') return mayNameUpload(snapshot) ? [snapshot] : []
  if (typeof snapshot !== 'object' || snapshot === null) return []
  return Object.values(snapshot).flatMap(uploadsShownIn)
}

export interface MediaDeletionDeps {
  store: Pick<StoreReader, 'isMediaUsed'>
  media: Pick<MediaService, 'keyOf' | 'formsOf' | 'remove'>
}

export function createMediaDeletion({ store, media }: MediaDeletionDeps) {
  return {
    /** Runs a `media-delete` job: the object goes unless something shows it, under any of its URLs. */
    async run(job: ClaimedJob): Promise<void> {
      const url = String(job.payload.url)
      const key = media.keyOf(url)
      if (key === undefined) return
      for (const form of media.formsOf(key)) if (await store.isMediaUsed(form)) return
      await media.remove(url)
    },
  }
}
