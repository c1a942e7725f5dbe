import { readdir, unlink } from 'node:fs/promises'
import path from 'node:path'
import { CorruptDatabaseError, DurableJsonFile } from './durable-file.js'
import type {
  AuditEntryRecord,
  Database,
  InviteRecord,
  JobRecord,
  AppRecord,
  AuthorizationCodeRecord,
  MarkerRecord,
  PushSubscriptionRecord,
  CustomEmojiRecord,
  NotificationRecord,
  PostRecord,
  ReportRecord,
  ReservedNameRecord,
  RevokedTokenRecord,
  UserRecord,
} from './types.js'

/**
 * How the database sits on disk. db.json is the root: either a whole database (version 1, the original
 * layout, still read) or a manifest (version 2). Records are spread over shards by a hash of their id;
 * the manifest names, for every shard, the segment file under db/ that holds its current records.
 *
 * A flush writes one new segment holding just the shards that changed, syncs it, and then replaces
 * db.json so that those shards point at it. The manifest is the commit point: a crash before it leaves
 * the old manifest, whose segments are all still there; a crash after it leaves the new one. A segment
 * no shard points at any more is removed afterwards. One file a flush, however many writes share it,
 * means one round of fsyncs a flush.
 *
 * Version 3 added notifications as a third kind of record, each in a shard of its own kind like users
 * and posts, so a like's notification costs one small shard and marking some read rewrites only theirs.
 * Version 4 added revoked tokens (logged-out tokens, kept until they expire) as a fourth, so a logout
 * writes one small shard rather than growing its user's record. Version 5 added the records of
 * moderation: reports, the audit log and invites. Version 6 added the usernames of deleted accounts,
 * held for a while so nobody takes a name over at once. Version 7 added the job queue's jobs, so a job
 * enqueued by a write is flushed with it; only jobs still to run and failed ones are written, done ones
 * being kept in memory until pruned. Version 8 added what the Mastodon client API keeps: apps,
 * authorization codes and reading markers. Version 9 added Web Push subscriptions, version 10 custom emoji. Older manifests are still read, as holding none of the kinds
 * that came after them.
 */
export type Kind =
  | 'users'
  | 'posts'
  | 'notifications'
  | 'revokedTokens'
  | 'reports'
  | 'auditLog'
  | 'invites'
  | 'reservedNames'
  | 'jobs'
  | 'apps'
  | 'authorizationCodes'
  | 'markers'
  | 'pushSubscriptions'
  | 'customEmojis'
export const KINDS: readonly Kind[] = [
  'users',
  'posts',
  'notifications',
  'revokedTokens',
  'reports',
  'auditLog',
  'invites',
  'reservedNames',
  'jobs',
  'apps',
  'authorizationCodes',
  'markers',
  'pushSubscriptions',
  'customEmojis',
]

export interface Manifest {
  version: 10
  /** Raised by every flush; names its segment, so a flush never overwrites a live file. */
  generation: number
  /** For each shard, the generation of the segment holding it (segmentName turns it into the file name). */
  users: number[]
  posts: number[]
  notifications: number[]
  revokedTokens: number[]
  reports: number[]
  auditLog: number[]
  invites: number[]
  reservedNames: number[]
  jobs: number[]
  apps: number[]
  authorizationCodes: number[]
  markers: number[]
  pushSubscriptions: number[]
  customEmojis: number[]
}

/** The manifest of the release before custom emoji. */
type ManifestV9 = Omit<Manifest, 'version' | 'customEmojis'> & { version: 9 }

/** The manifest of the release before Web Push. */
type ManifestV8 = Omit<ManifestV9, 'version' | 'pushSubscriptions'> & { version: 8 }

/** The manifest of the release before the Mastodon client API. */
type ManifestV7 = Omit<ManifestV8, 'version' | 'apps' | 'authorizationCodes' | 'markers'> & { version: 7 }

/** The manifest of the release before the job queue. */
type ManifestV6 = Omit<ManifestV7, 'version' | 'jobs'> & { version: 6 }
/** The manifest of the release before deleted accounts' names were held. */
type ManifestV5 = Omit<ManifestV6, 'version' | 'reservedNames'> & { version: 5 }
/** The manifest of the release before moderation. */
type ManifestV4 = Omit<ManifestV5, 'version' | 'reports' | 'auditLog' | 'invites'> & { version: 4 }
/** The manifest of the release before revoked tokens. */
type ManifestV3 = Omit<ManifestV4, 'version' | 'revokedTokens'> & { version: 3 }
/** The manifest of the release before notifications. */
type ManifestV2 = Omit<ManifestV3, 'version' | 'notifications'> & { version: 2 }

export interface Segment {
  version: 2
  generation: number
  /** `users/3`, `posts/17`: the records of each shard this segment holds. */
  shards: Record<string, object[]>
}

export type Root =
  | Database
  | ManifestV2
  | ManifestV3
  | ManifestV4
  | ManifestV5
  | ManifestV6
  | ManifestV7
  | ManifestV8
  | ManifestV9
  | Manifest

export const SEGMENT_DIR = 'db'
const SEGMENT_NAME = /^segment-(\d+)\.json$/

export const segmentName = (generation: number) => `segment-${String(generation).padStart(6, '0')}.json`
export const shardKey = (kind: Kind, shard: number) => `${kind}/${shard}`

/** FNV-1a: a stable, quick hash of an id, so a record always lands in the same shard. */
export function shardOf(id: string, count: number): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % count
}

/**
 * About 4 records a shard, a power of two between 16 and 16384: a write re-serialises a few kilobytes,
 * and the manifest, rewritten by every flush, stays a list of small numbers.
 */
export function shardCountFor(records: number): number {
  let count = 16
  while (count < 16384 && count * 4 < records) count *= 2
  return count
}

const isGenerationList = (value: unknown, latest: number): value is number[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((generation) => Number.isSafeInteger(generation) && generation > 0 && generation <= latest)

export function isRoot(data: unknown): data is Root {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false
  const candidate = data as { version?: unknown; generation?: unknown } & Partial<Record<Kind, unknown>>
  const { version } = candidate
  if (
    version === 2 ||
    version === 3 ||
    version === 4 ||
    version === 5 ||
    version === 6 ||
    version === 7 ||
    version === 8 ||
    version === 9 ||
    version === 10
  ) {
    const latest = candidate.generation
    return (
      typeof latest === 'number' &&
      Number.isSafeInteger(latest) &&
      isGenerationList(candidate.users, latest) &&
      isGenerationList(candidate.posts, latest) &&
      (version === 2 || isGenerationList(candidate.notifications, latest)) &&
      (version < 4 || isGenerationList(candidate.revokedTokens, latest)) &&
      (version < 5 ||
        (isGenerationList(candidate.reports, latest) &&
          isGenerationList(candidate.auditLog, latest) &&
          isGenerationList(candidate.invites, latest))) &&
      (version < 6 || isGenerationList(candidate.reservedNames, latest)) &&
      (version < 7 || isGenerationList(candidate.jobs, latest)) &&
      (version < 8 ||
        (isGenerationList(candidate.apps, latest) &&
          isGenerationList(candidate.authorizationCodes, latest) &&
          isGenerationList(candidate.markers, latest))) &&
      (version < 9 || isGenerationList(candidate.pushSubscriptions, latest)) &&
      (version < 10 || isGenerationList(candidate.customEmojis, latest))
    )
  }
  return candidate.version === 1 && Array.isArray(candidate.users) && Array.isArray(candidate.posts)
}

/** A manifest of any version, as this release works with it: an older one holds no shards of the newer kinds. */
export function manifestOf(root: Root): Manifest | undefined {
  const client = { apps: [], authorizationCodes: [], markers: [], pushSubscriptions: [], customEmojis: [] }
  const none = { reports: [], auditLog: [], invites: [], reservedNames: [], jobs: [], ...client }
  if (root.version === 10) return root
  if (root.version === 9) return { ...root, customEmojis: [], version: 10 }
  if (root.version === 8) return { ...root, pushSubscriptions: [], customEmojis: [], version: 10 }
  if (root.version === 7) return { ...root, ...client, version: 10 }
  if (root.version === 6) return { ...root, ...client, jobs: [], version: 10 }
  if (root.version === 5) return { ...root, ...client, reservedNames: [], jobs: [], version: 10 }
  if (root.version === 4) return { ...root, ...none, version: 10 }
  if (root.version === 3) return { ...root, ...none, version: 10, revokedTokens: [] }
  if (root.version === 2) return { ...root, ...none, version: 10, notifications: [], revokedTokens: [] }
  return undefined
}

function isSegment(data: unknown): data is Segment {
  const candidate = data as Partial<Segment> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.version === 2 &&
    typeof candidate.shards === 'object' &&
    candidate.shards !== null &&
    Object.values(candidate.shards).every(
      (records) =>
        Array.isArray(records) &&
        records.every(
          (record) =>
            typeof record === 'object' && record !== null && typeof (record as { _id?: unknown })._id === 'string',
        ),
    )
  )
}

/**
 * Every segment a manifest names, read and checked, by generation. One at a time: a segment's text is
 * garbage once parsed, so reading them in turn holds one file's text at most beside the records, where
 * reading them all at once held the text of the whole database too, and the heap grew to fit both.
 */
export async function readSegments(dataDir: string, manifest: Manifest): Promise<Map<number, Segment>> {
  const segments = new Map<number, Segment>()
  for (const generation of new Set(KINDS.flatMap((kind) => manifest[kind]))) {
    const file = path.join(dataDir, SEGMENT_DIR, segmentName(generation))
    const segment = await new DurableJsonFile(file, isSegment).read()
    if (segment === null) throw new CorruptDatabaseError(file, 'db.json names it, but it is missing')
    segments.set(generation, segment)
  }
  return segments
}

/** The whole database a manifest describes, from its segments. */
export function assemble(
  dataDir: string,
  manifest: Manifest,
  segments: ReadonlyMap<number, Segment>,
  withJobs = true,
): Database {
  const take = (kind: Kind) =>
    manifest[kind].flatMap((generation, shard) => {
      const records = segments.get(generation)?.shards[shardKey(kind, shard)]
      if (!records) {
        throw new CorruptDatabaseError(
          path.join(dataDir, SEGMENT_DIR, segmentName(generation)),
          `it does not hold ${shardKey(kind, shard)}`,
        )
      }
      return records
    })
  return {
    version: 1,
    users: take('users') as UserRecord[],
    posts: take('posts') as PostRecord[],
    notifications: take('notifications') as NotificationRecord[],
    revokedTokens: take('revokedTokens') as RevokedTokenRecord[],
    reports: take('reports') as ReportRecord[],
    auditLog: take('auditLog') as AuditEntryRecord[],
    invites: take('invites') as InviteRecord[],
    reservedNames: take('reservedNames') as ReservedNameRecord[],
    ...(withJobs ? { jobs: take('jobs') as JobRecord[] } : {}),
    apps: take('apps') as AppRecord[],
    authorizationCodes: take('authorizationCodes') as AuthorizationCodeRecord[],
    markers: take('markers') as MarkerRecord[],
    pushSubscriptions: take('pushSubscriptions') as PushSubscriptionRecord[],
    customEmojis: take('customEmojis') as CustomEmojiRecord[],
  }
}

/**
 * Segments that the manifest does not name: the leftovers of a crash or a failed flush. Without a
 * manifest (db.json is version 1, or is being replaced) every segment is a leftover.
 */
export async function removeStraySegments(dataDir: string, manifest: Manifest | undefined): Promise<void> {
  const dir = path.join(dataDir, SEGMENT_DIR)
  const live = new Set(manifest ? KINDS.flatMap((kind) => manifest[kind]).map(segmentName) : [])
  const names = await readdir(dir).catch(() => [] as string[])
  await Promise.all(
    names
      .filter((name) => !live.has(name) && SEGMENT_NAME.test(name))
      .map((name) => unlink(path.join(dir, name)).catch(() => {})),
  )
}
