import type { CommentRecord, PostRecord } from '../../server/store/types.js'
import { CARD_IMAGE, MALFORMED, UNKNOWN, type Fixture, type WriteCase } from './store-contract.js'

/** The writes of people, follows, blocks, mutes and bookmarks, in the order the suite runs them. */
export function peopleWrites(f: Fixture): WriteCase[] {
  const { u, p, at, newcomer, pending } = f
  const [u0, u1, u2, u3, u4, u5, u6, u7] = u as [string, string, string, string, string, string, string, string]
  const hash = f.database.users[2]?.passwordHash as string
  return [
    { op: 'createUser', name: 'a new user', write: (tx) => tx.createUser(newcomer) },
    {
      op: 'createUser',
      name: 'a name taken in another case',
      write: (tx) => tx.createUser({ ...newcomer, _id: UNKNOWN, username: 'NEWCOMER' }),
    },
    {
      op: 'createUser',
      name: 'a look-alike name',
      write: (tx) => tx.createUser({ ...newcomer, _id: UNKNOWN, username: 'NEWC0RNER' }),
    },
    ...pending.map((user): WriteCase => ({
      op: 'createUser',
      name: 'a pending signup',
      write: (tx) => tx.createUser(user),
    })),
    {
      op: 'updateProfile',
      name: 'some fields',
      write: (tx) => tx.updateProfile(u1, { bio: 'new bio', firstName: 'Una' }, at(1)),
    },
    { op: 'updateProfile', name: 'nobody', write: (tx) => tx.updateProfile(MALFORMED, { bio: 'x' }, at(1)) },
    { op: 'revokeTokens', name: 'a user', write: (tx) => tx.revokeTokens(u2) },
    { op: 'setMailAlerts', name: 'two kinds', write: (tx) => tx.setMailAlerts(u2, ['mention', 'report']) },
    { op: 'setMailAlerts', name: 'none again', write: (tx) => tx.setMailAlerts(u2, []) },
    { op: 'setMailAlerts', name: 'one kind', write: (tx) => tx.setMailAlerts(u2, ['follow']) },
    { op: 'setMailAlerts', name: 'nobody', write: (tx) => tx.setMailAlerts(UNKNOWN, ['follow']) },
    { op: 'setMailedThrough', name: 'a user', write: (tx) => tx.setMailedThrough(u2, at(1)) },
    { op: 'setMailedThrough', name: 'nobody', write: (tx) => tx.setMailedThrough(MALFORMED, at(1)) },
    { op: 'revokeTokens', name: 'nobody', write: (tx) => tx.revokeTokens(UNKNOWN) },
    {
      op: 'setPassword',
      name: 'from the wrong hash',
      write: (tx) => tx.setPassword(u2, 'scrypt$other', 'scrypt$new', at(2)),
    },
    { op: 'setPassword', name: 'from the current hash', write: (tx) => tx.setPassword(u2, hash, 'scrypt$new', at(2)) },
    { op: 'setPassword', name: 'nobody', write: (tx) => tx.setPassword(UNKNOWN, hash, 'scrypt$new', at(2)) },
    { op: 'follow', name: 'someone', write: (tx) => tx.follow(u3, newcomer._id, at(3)) },
    { op: 'follow', name: 'someone followed already', write: (tx) => tx.follow(u3, newcomer._id, at(3)) },
    { op: 'follow', name: 'oneself', write: (tx) => tx.follow(u3, u3, at(3)) },
    { op: 'follow', name: 'nobody', write: (tx) => tx.follow(u3, UNKNOWN, at(3)) },
    { op: 'follow', name: 'by nobody', write: (tx) => tx.follow(UNKNOWN, u3, at(3)) },
    { op: 'follow', name: 'a malformed id', write: (tx) => tx.follow(u3, MALFORMED, at(3)) },
    { op: 'unfollow', name: 'someone followed', write: (tx) => tx.unfollow(u3, newcomer._id, at(4)) },
    { op: 'unfollow', name: 'someone not followed', write: (tx) => tx.unfollow(u3, newcomer._id, at(4)) },
    { op: 'unfollow', name: 'oneself', write: (tx) => tx.unfollow(u3, u3, at(4)) },
    { op: 'unfollow', name: 'nobody', write: (tx) => tx.unfollow(u3, UNKNOWN, at(4)) },
    {
      op: 'follow',
      name: 'both ways, before a block',
      write: async (tx) => [await tx.follow(u3, u4, at(5)), await tx.follow(u4, u3, at(5))],
    },
    { op: 'block', name: 'ends the follows both ways', write: (tx) => tx.block(u3, u4, at(6)) },
    { op: 'block', name: 'again', write: (tx) => tx.block(u3, u4, at(6)) },
    { op: 'block', name: 'oneself', write: (tx) => tx.block(u3, u3, at(6)) },
    { op: 'block', name: 'nobody', write: (tx) => tx.block(u3, UNKNOWN, at(6)) },
    { op: 'block', name: 'with no follow between', write: (tx) => tx.block(u3, u2, at(7)) },
    { op: 'unblock', name: 'a block', write: (tx) => tx.unblock(u3, u2) },
    { op: 'unblock', name: 'no block', write: (tx) => tx.unblock(u3, u2) },
    { op: 'unblock', name: 'nobody', write: (tx) => tx.unblock(MALFORMED, u2) },
    { op: 'mute', name: 'until a time', write: (tx) => tx.mute(u0, { userId: u6, until: at(60) }, at(8)) },
    { op: 'mute', name: 'for ever', write: (tx) => tx.mute(u0, { userId: u7 }, at(9)) },
    { op: 'mute', name: 'again, a new end', write: (tx) => tx.mute(u0, { userId: u6, until: at(90) }, at(10)) },
    { op: 'mute', name: 'oneself', write: (tx) => tx.mute(u0, { userId: u0 }, at(10)) },
    { op: 'mute', name: 'nobody', write: (tx) => tx.mute(u0, { userId: UNKNOWN }, at(10)) },
    { op: 'unmute', name: 'a mute', write: (tx) => tx.unmute(u0, u7) },
    { op: 'unmute', name: 'no mute', write: (tx) => tx.unmute(u0, u7) },
    { op: 'unmute', name: 'nobody', write: (tx) => tx.unmute(u0, MALFORMED) },
    { op: 'addBookmark', name: 'a post', write: (tx) => tx.addBookmark(u2, p[3] as string, at(11)) },
    { op: 'addBookmark', name: 'again', write: (tx) => tx.addBookmark(u2, p[3] as string, at(11)) },
    { op: 'addBookmark', name: 'a post that does not exist', write: (tx) => tx.addBookmark(u2, UNKNOWN, at(11)) },
    { op: 'addBookmark', name: 'by nobody', write: (tx) => tx.addBookmark(UNKNOWN, p[3] as string, at(11)) },
    { op: 'addBookmark', name: 'a malformed id', write: (tx) => tx.addBookmark(u2, MALFORMED, at(11)) },
    { op: 'addBookmark', name: 'another post', write: (tx) => tx.addBookmark(u2, p[6] as string, at(12)) },
    { op: 'removeBookmark', name: 'a bookmark', write: (tx) => tx.removeBookmark(u2, p[3] as string, at(13)) },
    { op: 'removeBookmark', name: 'no bookmark', write: (tx) => tx.removeBookmark(u2, p[3] as string, at(13)) },
    { op: 'removeBookmark', name: 'a post that does not exist', write: (tx) => tx.removeBookmark(u2, UNKNOWN, at(13)) },
    { op: 'lockUser', name: 'a user', write: (tx) => tx.lockUser(u2) },
    { op: 'lockUser', name: 'nobody', write: (tx) => tx.lockUser(MALFORMED) },
    { op: 'setRole', name: 'a moderator', write: (tx) => tx.setRole(u7, 'moderator', at(14)) },
    { op: 'setRole', name: 'nobody', write: (tx) => tx.setRole(UNKNOWN, 'admin', at(14)) },
    {
      op: 'setSuspension',
      name: 'until a time',
      write: (tx) => tx.setSuspension(u5, { reason: 'spam', at: at(15), until: at(60) }, at(15)),
    },
    {
      op: 'setSuspension',
      name: 'until lifted',
      write: (tx) => tx.setSuspension(u1, { reason: 'x', at: at(15), until: null }, at(15)),
    },
    { op: 'setSuspension', name: 'lifted', write: (tx) => tx.setSuspension(u1, null, at(16)) },
    { op: 'setSuspension', name: 'nobody', write: (tx) => tx.setSuspension(MALFORMED, null, at(16)) },
    { op: 'approveUser', name: 'a pending signup', write: (tx) => tx.approveUser(pending[0]._id, at(17)) },
    { op: 'approveUser', name: 'someone not pending', write: (tx) => tx.approveUser(u1, at(17)) },
    { op: 'deletePendingUser', name: 'someone not pending', write: (tx) => tx.deletePendingUser(pending[0]._id) },
    { op: 'deletePendingUser', name: 'nobody', write: (tx) => tx.deletePendingUser(UNKNOWN) },
  ]
}

/** The writes of posts, reactions and comments. */
export function contentWrites(f: Fixture): WriteCase[] {
  const { u, p, at, fresh } = f
  const [u0, u1, u2, u3, , u5] = u as [string, string, string, string, string, string]
  const post: PostRecord = {
    _id: fresh.post,
    authorId: u3,
    content: 'post about #Chirp and #tags',
    mediaUrl: '',
    type: '',
    createdAt: at(20),
    updatedAt: at(20),
    likedBy: [u1, UNKNOWN],
    dislikedBy: [],
    comments: [],
    likeCount: 2,
    commentCount: 0,
  }
  const comment = (authorId: string, _id = fresh.comment): CommentRecord => ({
    _id,
    authorId,
    text: 'a reply #chirp',
    upvotedBy: [],
    downvotedBy: [],
    createdAt: at(21),
    updatedAt: at(21),
  })
  const image = {
    content: 'edited #chirp',
    mediaUrl: '/media/x.png',
    type: 'image',
    mediaAlt: 'alt',
    mediaWidth: 4,
    mediaHeight: 3,
  }
  const card = { url: 'https://a.example/x', title: 'A page', description: 'What it says', image: '' }
  return [
    { op: 'insertPost', name: 'a post liked by someone and by nobody', write: (tx) => tx.insertPost(post) },
    { op: 'updatePost', name: 'content and an image', write: (tx) => tx.updatePost(fresh.post, image, at(22)) },
    {
      op: 'updatePost',
      name: 'the image taken away',
      write: (tx) => tx.updatePost(fresh.post, { content: 'edited #chirp', mediaUrl: '', type: '' }, at(23)),
    },
    { op: 'updatePost', name: 'a post that does not exist', write: (tx) => tx.updatePost(UNKNOWN, image, at(23)) },
    { op: 'setPostCard', name: 'a card', write: (tx) => tx.setPostCard(fresh.post, card) },
    { op: 'setPostCard', name: 'a post that does not exist', write: (tx) => tx.setPostCard(UNKNOWN, card) },
    { op: 'setPostCard', name: 'a malformed id', write: (tx) => tx.setPostCard(MALFORMED, card) },
    {
      op: 'updatePost',
      name: 'the card cleared by an edit',
      write: (tx) =>
        tx.updatePost(fresh.post, { content: 'edited again', mediaUrl: '', type: '', card: undefined }, at(24)),
    },
    {
      op: 'setPostCard',
      name: 'a card with an image, on another post',
      write: (tx) => tx.setPostCard(p[3] as string, { ...card, image: CARD_IMAGE }),
    },
    { op: 'lockPost', name: 'a post', write: (tx) => tx.lockPost(fresh.post) },
    {
      op: 'lockPost',
      name: 'unknown and malformed',
      write: async (tx) => [await tx.lockPost(UNKNOWN), await tx.lockPost(MALFORMED)],
    },
    {
      op: 'lockPosts',
      name: 'in id order, the unknown and malformed left out',
      write: (tx) => tx.lockPosts([p[3] as string, UNKNOWN, fresh.post, MALFORMED, p[0] as string, p[3] as string]),
    },
    { op: 'lockPosts', name: 'none', write: (tx) => tx.lockPosts([]) },
    {
      op: 'relationsBetween',
      name: 'each pair in order, nobody in none',
      write: (tx) =>
        tx.relationsBetween(
          [
            [u[3] as string, u[4] as string],
            [u[4] as string, u[3] as string],
            [u0, MALFORMED],
            [u0, u[6] as string],
            [u0, u1],
          ],
          at(24),
        ),
    },
    { op: 'relationsBetween', name: 'no pairs', write: (tx) => tx.relationsBetween([], at(24)) },
    {
      op: 'setReactions',
      name: 'likes and unlikes of several posts, some already so',
      write: (tx) =>
        tx.setReactions(
          [
            { postId: p[5] as string, userId: u1, liked: true },
            { postId: p[4] as string, userId: u[7] as string, liked: false },
            { postId: p[6] as string, userId: u2, liked: false },
            { postId: p[7] as string, userId: u3, liked: true },
          ],
          at(24),
        ),
    },
    {
      op: 'setReactions',
      name: 'the same again, and nobody, and no post',
      write: (tx) =>
        tx.setReactions(
          [
            { postId: p[5] as string, userId: u1, liked: true },
            { postId: p[7] as string, userId: u3, liked: true },
            { postId: p[8] as string, userId: UNKNOWN, liked: true },
            { postId: UNKNOWN, userId: u1, liked: true },
            { postId: MALFORMED, userId: u1, liked: false },
          ],
          at(25),
        ),
    },
    {
      op: 'setReactions',
      name: 'an unlike of a like just made, and a like by one who unliked',
      write: (tx) =>
        tx.setReactions(
          [
            { postId: p[7] as string, userId: u3, liked: false },
            { postId: p[5] as string, userId: u1, liked: false },
          ],
          at(26),
        ),
    },
    { op: 'setReactions', name: 'none', write: (tx) => tx.setReactions([], at(26)) },
    { op: 'setReaction', name: 'a like', write: (tx) => tx.setReaction(p[0] as string, u1, true, at(24)) },
    { op: 'setReaction', name: 'a like again', write: (tx) => tx.setReaction(p[0] as string, u1, true, at(24)) },
    {
      op: 'setReaction',
      name: 'a like by one who disliked',
      write: (tx) => tx.setReaction(p[0] as string, u5, true, at(25)),
    },
    { op: 'setReaction', name: 'an unlike', write: (tx) => tx.setReaction(p[0] as string, u1, false, at(26)) },
    { op: 'setReaction', name: 'an unlike again', write: (tx) => tx.setReaction(p[0] as string, u1, false, at(26)) },
    {
      op: 'setReaction',
      name: 'a like by nobody',
      write: (tx) => tx.setReaction(p[0] as string, UNKNOWN, true, at(27)),
    },
    { op: 'setReaction', name: 'a like of no post', write: (tx) => tx.setReaction(UNKNOWN, u1, true, at(27)) },
    { op: 'addComment', name: 'a comment', write: (tx) => tx.addComment(fresh.post, comment(u2)) },
    { op: 'addComment', name: 'on no post', write: (tx) => tx.addComment(UNKNOWN, comment(u2, UNKNOWN)) },
    { op: 'addComment', name: 'by nobody', write: (tx) => tx.addComment(fresh.post, comment(UNKNOWN, UNKNOWN)) },
    {
      op: 'updateComment',
      name: 'its text',
      write: (tx) => tx.updateComment(fresh.post, fresh.comment, 'changed #tags', at(28)),
    },
    {
      op: 'updateComment',
      name: "another post's comment",
      write: (tx) => tx.updateComment(p[1] as string, fresh.comment, 'no', at(28)),
    },
    { op: 'updateComment', name: 'no comment', write: (tx) => tx.updateComment(fresh.post, UNKNOWN, 'no', at(28)) },
    { op: 'setVote', name: 'an upvote', write: (tx) => tx.setVote(fresh.post, fresh.comment, u1, true, at(29)) },
    { op: 'setVote', name: 'an upvote again', write: (tx) => tx.setVote(fresh.post, fresh.comment, u1, true, at(29)) },
    { op: 'setVote', name: 'turned down', write: (tx) => tx.setVote(fresh.post, fresh.comment, u1, false, at(30)) },
    { op: 'setVote', name: 'by nobody', write: (tx) => tx.setVote(fresh.post, fresh.comment, UNKNOWN, true, at(30)) },
    {
      op: 'setVote',
      name: "another post's comment",
      write: (tx) => tx.setVote(p[1] as string, fresh.comment, u0, true, at(30)),
    },
    { op: 'deleteComment', name: 'a comment', write: (tx) => tx.deleteComment(p[2] as string, f.c2) },
    { op: 'deleteComment', name: 'again', write: (tx) => tx.deleteComment(p[2] as string, f.c2) },
    { op: 'deleteComment', name: "another post's comment", write: (tx) => tx.deleteComment(p[2] as string, f.c1) },
    { op: 'deletePost', name: 'a bookmarked post', write: (tx) => tx.deletePost(p[11] as string) },
    { op: 'deletePost', name: 'no post', write: (tx) => tx.deletePost(UNKNOWN) },
  ]
}
