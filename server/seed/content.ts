/** The seeded community: 6 users (one of them the shared guest account) and 13 posts. */
export interface SeedUser {
  username: string
  password: string
  firstName: string
  lastName: string
  email: string
  avatar: 0 | 1 | 2
  bio: string
  website: string
  daysAgo: number
  follows: string[]
}

interface SeedComment {
  by: string
  text: string
  minutesAfter: number
}

export interface SeedPost {
  by: string
  content: string
  /** Index of a generated image. Every seeded post spells the field mediaUrl, as the API does. */
  image?: number
  hoursAgo: number
  likedBy: string[]
  comments: SeedComment[]
}

export const SEED_USERS: SeedUser[] = [
  {
    username: 'guest',
    password: 'guestpassword',
    firstName: 'Guest',
    lastName: 'User',
    email: 'guest@chirp.local',
    avatar: 0,
    bio: 'Just looking around. Say hi!',
    website: '',
    daysAgo: 30,
    follows: ['maya.lin', 'theo_park'],
  },
  {
    username: 'maya.lin',
    password: 'mayapassword',
    firstName: 'Maya',
    lastName: 'Lin',
    email: 'maya@chirp.local',
    avatar: 1,
    bio: 'Product designer. Typography nerd. Coffee first.',
    website: 'https://example.com/maya',
    daysAgo: 120,
    follows: ['theo_park', 'sam.okafor', 'guest'],
  },
  {
    username: 'theo_park',
    password: 'theopassword',
    firstName: 'Theo',
    lastName: 'Park',
    email: 'theo@chirp.local',
    avatar: 2,
    bio: 'Backend engineer who bakes bread on weekends.',
    website: 'https://example.com/theo',
    daysAgo: 98,
    follows: ['maya.lin', 'lucia.rossi'],
  },
  {
    username: 'sam.okafor',
    password: 'sampassword',
    firstName: 'Sam',
    lastName: 'Okafor',
    email: 'sam@chirp.local',
    avatar: 0,
    bio: 'Trail runner, amateur astronomer.',
    website: '',
    daysAgo: 75,
    follows: ['maya.lin'],
  },
  {
    username: 'lucia.rossi',
    password: 'luciapassword',
    firstName: 'Lucia',
    lastName: 'Rossi',
    email: 'lucia@chirp.local',
    avatar: 1,
    bio: 'Illustrator. Drawing something small every day.',
    website: 'https://example.com/lucia',
    daysAgo: 60,
    follows: ['maya.lin', 'theo_park', 'sam.okafor'],
  },
  {
    username: 'noah_kim',
    password: 'noahpassword',
    firstName: 'Noah',
    lastName: 'Kim',
    email: 'noah@chirp.local',
    avatar: 2,
    bio: 'Reading, writing, and refactoring.',
    website: '',
    daysAgo: 20,
    follows: ['lucia.rossi'],
  },
]

export const SEED_POSTS: SeedPost[] = [
  {
    by: 'maya.lin',
    content: 'Redesigned our onboarding today. Fewer screens, more clarity. 🎉',
    hoursAgo: 2,
    likedBy: ['theo_park', 'lucia.rossi', 'sam.okafor'],
    comments: [{ by: 'theo_park', text: 'The new flow feels so much lighter.', minutesAfter: 20 }],
  },
  {
    by: 'theo_park',
    content: 'Sourdough attempt #14. The crumb is finally open!',
    image: 0,
    hoursAgo: 5,
    likedBy: ['maya.lin', 'guest'],
    comments: [
      { by: 'maya.lin', text: 'That looks amazing, recipe please!', minutesAfter: 12 },
      { by: 'lucia.rossi', text: 'I can smell it from here.', minutesAfter: 45 },
    ],
  },
  {
    by: 'lucia.rossi',
    content: "Today's sketch: the harbour at dusk.",
    image: 1,
    hoursAgo: 9,
    likedBy: ['maya.lin', 'theo_park', 'sam.okafor', 'noah_kim'],
    comments: [{ by: 'sam.okafor', text: 'Those colours!', minutesAfter: 30 }],
  },
  {
    by: 'sam.okafor',
    content: 'Saturn was crisp through the telescope last night. Rings and all.',
    hoursAgo: 20,
    likedBy: ['lucia.rossi'],
    comments: [],
  },
  {
    by: 'guest',
    content: 'Hello Chirp! Trying this out for the first time.',
    hoursAgo: 26,
    likedBy: ['maya.lin'],
    comments: [{ by: 'maya.lin', text: 'Welcome aboard!', minutesAfter: 5 }],
  },
  {
    by: 'noah_kim',
    content: 'A good commit message explains why, not what.',
    hoursAgo: 40,
    likedBy: ['theo_park', 'maya.lin'],
    comments: [{ by: 'theo_park', text: 'Printing this and taping it to my monitor.', minutesAfter: 60 }],
  },
  {
    by: 'maya.lin',
    content: 'Hot take: dark mode is a feature, not a theme.',
    hoursAgo: 55,
    likedBy: ['noah_kim', 'sam.okafor'],
    comments: [],
  },
  {
    by: 'theo_park',
    content: 'Shipped a cache that made the slow page 40x faster. Best feeling.',
    hoursAgo: 80,
    likedBy: ['maya.lin', 'lucia.rossi', 'noah_kim'],
    comments: [
      { by: 'noah_kim', text: 'What was the bottleneck?', minutesAfter: 15 },
      { by: 'theo_park', text: 'N+1 queries, as always.', minutesAfter: 25 },
    ],
  },
  {
    by: 'lucia.rossi',
    content: 'Ink, paper, tea. Perfect morning.',
    image: 2,
    hoursAgo: 120,
    likedBy: ['sam.okafor'],
    comments: [],
  },
  {
    by: 'sam.okafor',
    content: '21 km this morning along the ridge. Legs are jelly.',
    hoursAgo: 170,
    likedBy: ['maya.lin', 'guest'],
    comments: [{ by: 'guest', text: 'Impressive!', minutesAfter: 90 }],
  },
  {
    by: 'noah_kim',
    content: 'Finished reading a book on distributed systems. My brain is full.',
    hoursAgo: 240,
    likedBy: [],
    comments: [],
  },
  {
    by: 'maya.lin',
    content: 'Whitespace is not empty space. It is breathing room.',
    hoursAgo: 400,
    likedBy: ['lucia.rossi', 'theo_park'],
    comments: [{ by: 'lucia.rossi', text: 'Agreed, same in illustration.', minutesAfter: 40 }],
  },
  {
    by: 'theo_park',
    content: 'Reminder: back up your data. Then test the backup.',
    hoursAgo: 700,
    likedBy: ['noah_kim', 'sam.okafor', 'maya.lin'],
    comments: [],
  },
]
