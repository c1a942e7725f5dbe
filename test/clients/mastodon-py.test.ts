import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { IMAGE_BYTES, signup } from '../helpers/api.js'
import { DEBIAN_PYTHON, listeningChirp, missing, run, tempHome } from './harness.js'

/**
 * Mastodon.py (Debian's python3-mastodon) against Chirp: it registers an app, logs in by the password grant,
 * reads the account, the instance, preferences and custom emoji, moves a marker, follows someone, posts
 * with a poll, favourites, reblogs, pages its home timeline by the Link header, uploads and describes an
 * image and posts it, replies to a post and reads the thread, reads its notifications, streams its home
 * and the public timeline (server-sent events, each wait bounded), and revokes its token. The
 * script prints one JSON line a step, which the tests below read. On whichever store runs
 * (test/clients/mastodon-py-postgres.test.ts runs it on PostgreSQL).
 */
const SCRIPT = `
import json, sys, threading, time
from mastodon import Mastodon, MastodonError, StreamListener

base, username, password, friend, picture = sys.argv[1:6]
def say(step, value):
    print(json.dumps({'step': step, 'value': value}, default=str), flush=True)

class Heard(StreamListener):
    '''What a stream delivered, as [event, status id], and a wait bounded in time.'''
    def __init__(self):
        super().__init__()
        self.events = []
        self.changed = threading.Condition()
    def note(self, event):
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()
    def on_update(self, status):
        self.note(['update', status['id']])
    def on_delete(self, status_id):
        self.note(['delete', status_id])
    def wait_for(self, count, seconds=10):
        with self.changed:
            self.changed.wait_for(lambda: len(self.events) >= count, timeout=seconds)
        return list(self.events)

def receiving(handle, seconds=10):
    deadline = time.monotonic() + seconds
    while not handle.is_receiving() and time.monotonic() < deadline:
        time.sleep(0.05)
    return handle.is_receiving()

client_id, client_secret = Mastodon.create_app('Journey', api_base_url=base, scopes=['read', 'write', 'follow'])
m = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
m.log_in(username, password, scopes=['read', 'write', 'follow'])
me = m.account_verify_credentials()
say('me', {'id': me['id'], 'username': me['username'], 'acct': me['acct'], 'privacy': me['source']['privacy'], 'note': me['note']})
instance = m.instance()
say('instance', {'version': instance['version'], 'streaming': instance['urls']['streaming_api']})
say('version', m.retrieve_mastodon_version())
say('preferences', m.preferences())
say('emojis', m.custom_emojis())
m.markers_set(['home'], ['42'])
marker = m.markers_get(['home'])['home']
say('marker', {'last_read_id': str(marker['last_read_id']), 'version': marker['version']})
other = m.account_lookup(friend)
say('follow', m.account_follow(other['id'])['following'])
poll = m.make_poll(['yes', 'no'], expires_in=3600)
first = m.status_post('hello from Mastodon.py #journey', poll=poll, spoiler_text='a poll')
second = m.status_post('a second one', visibility='unlisted')
say('posted', {'id': first['id'], 'poll': [o['title'] for o in first['poll']['options']], 'spoiler': first['spoiler_text'], 'tags': [t['name'] for t in first['tags']]})
say('favourite', m.status_favourite(first['id'])['favourited'])
say('reblog', m.status_reblog(second['id'])['reblogged'])
home = m.timeline_home(limit=1)
older = m.fetch_next(home)
say('home', {'first': [s['id'] for s in home], 'next': [s['id'] for s in (older or [])], 'second': second['id'], 'first_post': first['id']})
say('favourites', [s['id'] for s in m.favourites()])
media = m.media_post(picture, mime_type='image/png', description='a small gradient', focus=(0.5, -0.5))
say('media', {'id': media['id'], 'description': media['description'], 'focus': media['meta']['focus']})
media = m.media_update(media['id'], description='a small gradient, described again')
pictured = m.status_post('with a picture', media_ids=[media])
say('pictured', [{'id': a['id'], 'type': a['type'], 'description': a['description']} for a in pictured['media_attachments']])
reply = m.status_reply(second, 'answering my own post')
say('reply', {'in_reply_to_id': reply['in_reply_to_id'], 'to': second['id'], 'read': m.status(reply['id'])['id'] == reply['id']})
thread = m.status_context(second['id'])
say('context', {'descendants': [s['id'] for s in thread['descendants']], 'reply': reply['id']})
notes = m.notifications()
say('notifications', [{'type': n['type'], 'acct': n['account']['acct']} for n in notes])
home_heard, public_heard = Heard(), Heard()
home_stream = m.stream_user(home_heard, run_async=True, timeout=15)
public_stream = m.stream_public(public_heard, run_async=True, timeout=15)
say('streams open', receiving(home_stream) and receiving(public_stream))
live = m.status_post('heard live')
m.status_delete(live['id'])
say('stream user', {'id': live['id'], 'heard': home_heard.wait_for(2)})
say('stream public', {'id': live['id'], 'heard': public_heard.wait_for(2)})
home_stream.close()
public_stream.close()
m.revoke_access_token()
try:
    m.account_verify_credentials()
    say('after revoke', 'still signed in')
except MastodonError as error:
    say('after revoke', type(error).__name__)
`

interface Line {
  step: string
  value: unknown
}

const why = await missing('python3-mastodon')
if (why) {
  t.plan(0, why)
} else {
  const { api, base } = await listeningChirp(t)
  const home = await tempHome(t)
  const script = path.join(home, 'journey.py')
  await writeFile(script, SCRIPT)
  const picture = path.join(home, 'picture.png')
  await writeFile(picture, IMAGE_BYTES.png)
  const me = await signup(api, { password: 'a password python types' })
  const friend = await signup(api)
  await api.as(friend.token, { method: 'POST', url: `/api/users/follow/${me.user._id}` })
  const outcome = await run(
    DEBIAN_PYTHON,
    [script, base, me.username, 'a password python types', friend.username, picture],
    {
      env: { HOME: home },
    },
  )
  const lines = outcome.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
  const step = (name: string) => lines.find((line) => line.step === name)?.value

  await t.test('the journey runs to its end', async (t) => {
    t.equal(outcome.code, 0, outcome.stderr)
  })

  await t.test('Mastodon.py logs in and reads the account', async (t) => {
    t.match(step('me'), { id: me.user._id, username: me.username, acct: me.username, privacy: 'public' })
  })

  await t.test('Mastodon.py reads the instance and parses its version', async (t) => {
    t.match(step('instance'), { version: /^4\.3\.0 \(compatible; Chirp /, streaming: /^ws:\/\// })
    t.equal(step('version'), '4.3.0')
  })

  await t.test('Mastodon.py reads preferences and custom emoji, and moves a marker', async (t) => {
    t.match(step('preferences'), { 'posting:default:visibility': 'public' })
    t.strictSame(step('emojis'), [])
    t.strictSame(step('marker'), { last_read_id: '42', version: 1 })
  })

  await t.test('Mastodon.py follows someone, posts with a poll, favourites, reblogs and pages its home', async (t) => {
    t.equal(step('follow'), true)
    t.match(step('posted'), { poll: ['yes', 'no'], spoiler: 'a poll', tags: ['journey'] })
    t.equal(step('favourite'), true)
    t.equal(step('reblog'), true)
    const home = step('home') as { first: string[]; next: string[]; second: string; first_post: string }
    t.same(home.first, [home.second], 'the newest post first')
    t.same(home.next, [home.first_post], 'the next page by its Link header')
    t.same(step('favourites'), [home.first_post])
  })

  await t.test('Mastodon.py uploads an image, describes it and posts it', async (t) => {
    const media = step('media') as { id: string }
    t.match(media, { id: /^[0-9a-f]{32}$/, description: 'a small gradient', focus: { x: 0.5, y: -0.5 } })
    t.same(step('pictured'), [{ id: media.id, type: 'image', description: 'a small gradient, described again' }])
  })

  await t.test('Mastodon.py replies to a post and reads the thread', async (t) => {
    const reply = step('reply') as { in_reply_to_id: string; to: string; read: boolean }
    t.equal(reply.in_reply_to_id, reply.to)
    t.equal(reply.read, true, 'the reply reads back')
    const thread = step('context') as { descendants: string[]; reply: string }
    t.same(thread.descendants, [thread.reply])
  })

  await t.test('Mastodon.py reads its notifications', async (t) => {
    t.same(step('notifications'), [{ type: 'follow', acct: friend.username }])
  })

  await t.test('Mastodon.py streams its home and the public timeline: a post, then its deletion', async (t) => {
    t.equal(step('streams open'), true, 'both streams connect')
    for (const name of ['stream user', 'stream public']) {
      const { id, heard } = step(name) as { id: string; heard: [string, string][] }
      t.strictSame(
        heard,
        [
          ['update', id],
          ['delete', id],
        ],
        name,
      )
    }
  })

  await t.test('Mastodon.py revokes its token, which then stops working', async (t) => {
    t.equal(step('after revoke'), 'MastodonUnauthorizedError')
  })
}
