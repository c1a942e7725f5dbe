import './dom.js'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import t from 'tap'
import { CommentsSection } from '../../client/components/comments-section.js'
import { PollCard } from '../../client/components/poll-card.js'
import { PostCard } from '../../client/components/post-card.js'
import { PostForm, type PostDraft } from '../../client/components/post-form.js'
import { actionText, groupNotifications } from '../../client/lib/notification-groups.js'
import { applyLiveEvent } from '../../client/live/apply.js'
import { cachePosts, postCache } from '../../client/state/post-cache.js'
import type { Poll } from '../../server/schemas/posts.js'
import { cardProps, makeComment, makePost, ok, renderAt, resetAll, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const NOW = Date.parse('2026-03-01T00:00:00.000Z')
const DAY = 86_400_000
const NOW_ISO = new Date(NOW).toISOString()
const openPoll = (fields: Partial<Poll> = {}): Poll => ({
  options: [
    { text: 'Tea', votes: null },
    { text: 'Coffee', votes: null },
  ],
  votes: null,
  closesAt: new Date(NOW + 2 * DAY + 60_000).toISOString(),
  closed: false,
  voted: null,
  ...fields,
})
const counted = (fields: Partial<Poll> = {}): Poll =>
  openPoll({
    options: [
      { text: 'Tea', votes: 1 },
      { text: 'Coffee', votes: 3 },
    ],
    votes: 4,
    voted: 1,
    ...fields,
  })

await t.test('an open poll offers its options as radio buttons and Vote, which sends the choice', async (t) => {
  const votes: number[] = []
  render(<PollCard poll={openPoll()} now={NOW} onVote={async (choice) => votes.push(choice) > 0} />)
  const vote = screen.getByRole('button', { name: 'Vote' })
  t.ok((vote as HTMLButtonElement).disabled, 'nothing chosen yet')
  fireEvent.click(screen.getByRole('radio', { name: 'Coffee' }))
  t.notOk((vote as HTMLButtonElement).disabled)
  fireEvent.click(vote)
  await until(() => votes.length === 1)
  t.strictSame(votes, [1])
  t.ok(screen.getByText('2 days left'), 'the time left')
})

await t.test("once voted, bars with shares and counts, the reader's choice marked", async (t) => {
  render(<PollCard poll={counted()} now={NOW} onVote={async () => true} />)
  t.equal(screen.queryByRole('radio'), null, 'no more radio buttons')
  const results = within(screen.getByRole('group', { name: 'Poll results' })).getAllByRole('listitem')
  t.strictSame(
    results.map((item) => item.textContent),
    ['Tea25% · 1 vote', 'Coffee (your vote)75% · 3 votes'],
  )
  t.ok(screen.getByText('4 votes · 2 days left'))
})

await t.test('a closed poll shows its results and Closed, to a reader who never voted too', async (t) => {
  render(<PollCard poll={counted({ voted: null, closed: true })} now={NOW} onVote={async () => true} />)
  t.equal(screen.queryByRole('button', { name: 'Vote' }), null)
  t.ok(screen.getByText('4 votes · Closed'))
  // The clock passing closesAt closes it on screen too, even before the post is read again.
  cleanup()
  render(<PollCard poll={openPoll()} now={NOW + 3 * DAY} onVote={async () => true} />)
  t.equal(screen.queryByRole('radio'), null, 'no voting past closesAt')
  t.ok(screen.getByText('Closed'))
})

await t.test(
  'a post with a content warning shows only the warning until Show, and Hide collapses it again',
  async (t) => {
    const post = makePost({
      content: 'The butler did it',
      spoilerText: 'Mystery spoilers',
      mediaUrl: '/media/clue.png',
      mediaAlt: 'the clue',
    })
    renderAt('/', <PostCard {...cardProps({ post })} />)
    t.ok(screen.getByText('Mystery spoilers'))
    t.equal(screen.queryByText('The butler did it'), null, 'the text is hidden')
    t.equal(screen.queryByRole('img', { name: 'the clue' }), null, 'and the image')
    const show = screen.getByRole('button', { name: 'Show' })
    t.equal(show.getAttribute('aria-expanded'), 'false')
    fireEvent.click(show)
    t.ok(screen.getByText('The butler did it'))
    t.ok(screen.getByRole('img', { name: 'the clue' }))
    const hide = screen.getByRole('button', { name: 'Hide' })
    t.equal(hide.getAttribute('aria-expanded'), 'true')
    fireEvent.click(hide)
    t.equal(screen.queryByText('The butler did it'), null, 'hidden again')
  },
)

function composer(props: Partial<Parameters<typeof PostForm>[0]> = {}) {
  const sent: PostDraft[] = []
  render(
    <PostForm
      allowPoll
      resetAfterSubmit
      onSubmit={async (draft) => sent.push(draft) > 0}
      onUpload={async () => null}
      onFileError={() => {}}
      {...props}
    />,
  )
  return sent
}

await t.test('the CW button reveals the warning field, and the post carries the warning', async (t) => {
  const sent = composer()
  const cw = screen.getByRole('button', { name: 'CW: content warning' })
  t.equal(cw.getAttribute('aria-pressed'), 'false')
  t.equal(screen.queryByRole('textbox', { name: 'Content warning text' }), null, 'no field yet')
  fireEvent.click(cw)
  t.equal(cw.getAttribute('aria-pressed'), 'true')
  fireEvent.change(screen.getByRole('textbox', { name: 'Content warning text' }), { target: { value: ' Food ' } })
  fireEvent.change(screen.getByRole('textbox', { name: 'Post text' }), { target: { value: 'Pineapple pizza' } })
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => sent.length === 1)
  t.match(sent[0], { content: 'Pineapple pizza', spoilerText: 'Food' })
  t.notOk(sent[0] && 'poll' in sent[0], 'no poll')
})

await t.test(
  'the poll builder: 2 to 4 options, add and remove, 1 to 7 days; Post waits for every option',
  async (t) => {
    const sent = composer()
    fireEvent.click(screen.getByRole('button', { name: 'Poll' }))
    t.equal(screen.getAllByRole('textbox', { name: /^Option \d$/ }).length, 2)
    t.equal(screen.queryByRole('button', { name: /Remove option/ }), null, 'two is the least')
    const add = screen.getByRole('button', { name: 'Add option' })
    fireEvent.click(add)
    fireEvent.click(add)
    t.equal(screen.getAllByRole('textbox', { name: /^Option \d$/ }).length, 4)
    t.equal(screen.queryByRole('button', { name: 'Add option' }), null, 'four is the most')
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 4' }))
    const select = screen.getByRole('combobox', { name: 'Poll length' }) as HTMLSelectElement
    t.strictSame(
      [...select.options].map((option) => option.value),
      ['1', '2', '3', '4', '5', '6', '7'],
    )
    fireEvent.change(select, { target: { value: '3' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Post text' }), { target: { value: 'Lunch?' } })
    const post = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement
    t.ok(post.disabled, 'empty options wait')
    ;['Soup', 'Salad', 'Sandwich'].forEach((text, i) =>
      fireEvent.change(screen.getByRole('textbox', { name: `Option ${i + 1}` }), { target: { value: text } }),
    )
    t.notOk(post.disabled)
    fireEvent.click(post)
    await until(() => sent.length === 1)
    t.strictSame(sent[0]?.poll, { options: ['Soup', 'Salad', 'Sandwich'], days: 3 })
    t.equal(screen.queryByRole('combobox', { name: 'Poll length' }), null, 'the composer starts over')
  },
)

await t.test('an edit shows no poll builder', async (t) => {
  composer({ allowPoll: false })
  t.equal(screen.queryByRole('button', { name: 'Poll' }), null)
})

await t.test('comments draw as threads: replies under the comment they answer, and Reply says whom', async (t) => {
  const added: [string, string | undefined][] = []
  const root = makeComment('first', { _id: 'c1', username: 'maya', createdAt: '2026-01-01T00:00:00.000Z' })
  const reply = makeComment('an answer', {
    _id: 'c2',
    username: 'theo',
    replyTo: 'c1',
    createdAt: '2026-01-01T01:00:00.000Z',
  })
  const later = makeComment('another', { _id: 'c3', username: 'sam', createdAt: '2026-01-01T02:00:00.000Z' })
  renderAt(
    '/',
    <CommentsSection
      comments={[root, reply, later]}
      me="guest"
      postOwner="maya"
      now={NOW}
      handlers={{
        onAdd: async (text, replyTo) => added.push([text, replyTo]) > 0,
        onEdit: async () => true,
        onDelete: () => {},
      }}
    />,
  )
  const replies = screen.getByRole('list', { name: 'Replies to @maya' })
  t.ok(within(replies).getByText('an answer'), 'the reply sits under its comment')
  t.equal(within(replies).queryByText('first'), null)
  fireEvent.click(screen.getByRole('button', { name: 'Reply to @theo' }))
  t.ok(screen.getByText(/Replying to @theo/))
  const box = screen.getByRole('textbox', { name: 'Reply to @theo' })
  t.equal(document.activeElement, box, 'focus goes to the reply box')
  fireEvent.change(box, { target: { value: 'me too' } })
  fireEvent.click(screen.getByRole('button', { name: 'Reply' }))
  await until(() => added.length === 1)
  t.strictSame(added, [['me too', 'c2']], 'the reply answers the comment chosen')
  await until(() => screen.queryByText(/Replying to/) === null)
  fireEvent.click(screen.getByRole('button', { name: 'Reply to @sam' }))
  fireEvent.click(screen.getByRole('button', { name: 'Cancel reply' }))
  t.equal(screen.queryByText(/Replying to/), null, 'cancelled')
})

await t.test(
  'a thread is a tree, oldest first: three levels indent, deeper replies say whom they answer',
  async (t) => {
    const at = (hour: number) => `2026-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`
    const chain = ['maya', 'theo', 'sam', 'ana', 'lee'].map((username, i) =>
      makeComment(`level ${i}`, {
        _id: `c${i}`,
        username,
        replyTo: i === 0 ? null : `c${i - 1}`,
        createdAt: at(i + 2),
      }),
    )
    const older = makeComment('an older root', { _id: 'r0', username: 'kim', createdAt: at(1) })
    const sibling = makeComment('a later answer', { _id: 's1', username: 'kim', replyTo: 'c0', createdAt: at(9) })
    // Handed over newest first: the tree still reads oldest first.
    renderAt(
      '/',
      <CommentsSection
        comments={[sibling, ...chain].reverse().concat(older)}
        me="guest"
        postOwner="maya"
        now={NOW}
        handlers={{ onAdd: async () => true, onEdit: async () => true, onDelete: () => {} }}
      />,
    )
    const texts = () => [...document.querySelectorAll('.comment-text')].map((each) => each.textContent)
    t.strictSame(texts(), ['an older root', 'level 0', 'level 1', 'level 2', 'level 3', 'level 4', 'a later answer'])
    const toRoot = screen.getByRole('list', { name: 'Replies to @maya' })
    t.strictSame(
      within(toRoot)
        .getAllByRole('list')
        .map((list) => list.getAttribute('aria-label')),
      ['Replies to @theo', 'Replies to @sam'],
      'three levels of indenting, no more',
    )
    const third = screen.getByRole('list', { name: 'Replies to @sam' })
    t.ok(within(third).getByText('level 4'), 'deeper replies line up with the third level')
    t.strictSame(
      [...document.querySelectorAll('.comment-answers')].map((each) => each.textContent),
      ['Replying to @ana'],
      'and say whom they answer',
    )
    t.ok(within(toRoot).getByText('a later answer'), 'a sibling follows the subtree before it')
  },
)

await t.test('a live poll.voted reads the post again, as its reader sees it', async (t) => {
  const post = makePost({ _id: 'p1', id: 'p1', poll: openPoll() })
  cachePosts([post])
  const api = stubApi({ 'GET /api/posts/p1': () => ok({ post: { ...post, poll: counted() } }) })
  applyLiveEvent({ name: 'poll.voted', data: { postId: 'p1' }, id: '1' })
  await until(() => postCache.byId.p1?.poll?.votes === 4)
  t.equal(api.calls.length, 1)
  applyLiveEvent({ name: 'poll.voted', data: { postId: 'not-shown' }, id: '2' })
  t.equal(api.calls.length, 1, 'a post not on screen is not read')
})

await t.test('reply and poll notifications say what happened, each on its own row', async (t) => {
  const actor = { _id: 'u1', username: 'theo', firstName: 'Theo', lastName: 'Park', avatarURL: '/avatars/avatar-1.svg' }
  const about = { _id: 'p1', content: 'Tea or coffee?', mediaUrl: '' }
  const rows = groupNotifications([
    {
      _id: 'n1',
      type: 'reply',
      actor,
      post: about,
      comment: { _id: 'c1', text: 'Tea!' },
      createdAt: NOW_ISO,
      read: false,
    },
    { _id: 'n2', type: 'poll', actor, post: about, createdAt: NOW_ISO, read: false },
  ])
  t.strictSame(
    rows.map((row) => [row.type, actionText(row)]),
    [
      ['reply', 'replied to your comment'],
      ['poll', 'ran a poll that has now ended'],
    ],
  )
})
