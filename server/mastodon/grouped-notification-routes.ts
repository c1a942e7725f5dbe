import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, linkHeader, pageWindow } from './paging.js'
import {
  GROUPED_BY_DEFAULT,
  NOTIFICATION_TYPES,
  TypesQuerySchema,
  groupKeyOf,
  notificationParts,
  typesFilter,
} from './notification-entity.js'
import { AccountSchema, Nullable } from './schemas.js'
import type { Status } from './status-schemas.js'
import { StatusSchema } from './status-schemas.js'

const Grouped = Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Array(Type.String({ maxLength: 32 }))]))
const GroupSchema = Type.Object(
  {
    group_key: Type.String(),
    notifications_count: Type.Integer(),
    type: Type.String(),
    most_recent_notification_id: Type.String(),
    page_min_id: Type.String(),
    page_max_id: Type.String(),
    latest_page_notification_at: Type.String(),
    sample_account_ids: Type.Array(Type.String()),
    status_id: Type.Optional(Nullable(Type.String())),
  },
  { title: 'MastodonNotificationGroup' },
)
const GroupedNotificationsSchema = Type.Object(
  {
    accounts: Type.Array(AccountSchema),
    statuses: Type.Array(StatusSchema),
    notification_groups: Type.Array(GroupSchema),
  },
  { title: 'MastodonGroupedNotifications' },
)
/** Mastodon shows a group by at most this many of its people. */
const SAMPLE_ACCOUNTS = 8

interface Group {
  key: string
  type: string
  ids: string[]
  latestAt: string
  accountIds: string[]
  status: Status | null | undefined
}

/**
 * Notifications grouped as Mastodon 4.3's version 2 (`grouped_types`, favourites, follows and reblogs by
 * default): a page of notifications, paged and filtered as version 1's, whose members of one group come
 * together, the people and statuses they show listed once beside them. A group is counted within its page.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  app.get(
    '/api/v2/notifications',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description:
          "The person's notifications, newest first, those of a kind in `grouped_types` grouped: favourites and reblogs of one status, follows of one day.",
        querystring: Type.Composite([
          PageQuerySchema,
          TypesQuerySchema,
          Type.Object({
            grouped_types: Grouped,
            'grouped_types[]': Grouped,
            expand_accounts: Type.Optional(Type.String({ maxLength: 32 })),
          }),
        ]),
        response: { 200: GroupedNotificationsSchema, ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const query = request.query
      const asked = [query.grouped_types ?? [], query['grouped_types[]'] ?? []].flat()
      const grouped = asked.length === 0 ? GROUPED_BY_DEFAULT : asked
      const entries = await services.notifications.window(userId, pageWindow(query, { fallback: 40, max: 80 }))
      const link = linkHeader(new URL(request.url, `${publicUrl}/`), entries)
      if (link !== undefined) void reply.header('link', link)
      const keep = typesFilter(query)
      const shown = entries.filter(({ item }) => keep(item))
      const notifications: Notification[] = shown.map(({ item }) => item)
      const { accounts, statuses } = await notificationParts(services, publicUrl, notifications, userId)

      const groups = new Map<string, Group>()
      for (const { id, item } of shown) {
        if (!accounts.has(item.actor._id)) continue
        const key = groupKeyOf(item, id, grouped)
        const group = groups.get(key)
        if (group) {
          group.ids.push(id)
          if (!group.accountIds.includes(item.actor._id)) group.accountIds.push(item.actor._id)
          continue
        }
        groups.set(key, {
          key,
          type: NOTIFICATION_TYPES[item.type],
          ids: [id],
          latestAt: item.createdAt,
          accountIds: [item.actor._id],
          status: item.post ? (statuses.get(item.post._id) ?? null) : undefined,
        })
      }
      const listed = [...groups.values()]
      const accountIds = new Set(listed.flatMap((group) => group.accountIds.slice(0, SAMPLE_ACCOUNTS)))
      const shownStatuses = new Map<string, Status>()
      for (const group of listed) if (group.status) shownStatuses.set(group.status.id, group.status)
      return {
        accounts: [...accountIds].flatMap((id) => accounts.get(id) ?? []),
        statuses: [...shownStatuses.values()],
        notification_groups: listed.map((group) => ({
          group_key: group.key,
          notifications_count: group.ids.length,
          type: group.type,
          most_recent_notification_id: group.ids[0] ?? '',
          page_min_id: group.ids.at(-1) ?? '',
          page_max_id: group.ids[0] ?? '',
          latest_page_notification_at: group.latestAt,
          sample_account_ids: group.accountIds.slice(0, SAMPLE_ACCOUNTS),
          ...(group.status === undefined ? {} : { status_id: group.status?.id ?? null }),
        })),
      }
    },
  )

  app.get(
    '/api/v2/notifications/unread_count',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description:
          "How many of the person's notifications are unread, counted up to `limit` (100 by default, 1000 at most).",
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Type.Object({ count: Type.Integer({ minimum: 0 }) }), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const limit = Math.min(request.query.limit ?? 100, 1000)
      return { count: Math.min(await services.notifications.unread(request.user._id), limit) }
    },
  )
}

export default routes
