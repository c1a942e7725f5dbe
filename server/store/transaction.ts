import type { PageRequest, PostQuery, PostRecord, StoreReader, StoreWriter, UserRecord } from './types.js'

/** Staged changes of one transaction; reads inside it see them first. */
export class Transaction implements StoreWriter {
  readonly users = new Map<string, UserRecord>()
  readonly posts = new Map<string, PostRecord | null>()
  constructor(private readonly base: StoreReader) {}

  get empty() {
    return this.users.size === 0 && this.posts.size === 0
  }
  async getUser(id: string) {
    return this.users.get(id) ?? this.base.getUser(id)
  }
  async getUserByUsername(username: string) {
    const lower = username.toLowerCase()
    for (const user of this.users.values()) if (user.username.toLowerCase() === lower) return user
    return this.base.getUserByUsername(username)
  }
  async getUsers(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getUser(id)))
    return found.filter((user): user is UserRecord => user !== undefined)
  }
  async getPost(id: string) {
    const staged = this.posts.get(id)
    return staged === null ? undefined : (staged ?? this.base.getPost(id))
  }
  async getPosts(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getPost(id)))
    return found.filter((post): post is PostRecord => post !== undefined)
  }
  /** Lists read committed data: no service lists inside a transaction. */
  listUsers(page: PageRequest) {
    return this.base.listUsers(page)
  }
  listPosts(query: PostQuery) {
    return this.base.listPosts(query)
  }
  async putUser(user: UserRecord) {
    this.users.set(user._id, Object.freeze(user))
  }
  async putPost(post: PostRecord) {
    this.posts.set(post._id, Object.freeze(post))
  }
  async deletePost(id: string) {
    this.posts.set(id, null)
  }
}
