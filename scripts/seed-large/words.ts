import { pick, randomInt, type Random } from './random.js'

export const FIRST_NAMES = [
  'Ada',
  'Amir',
  'Ana',
  'Ben',
  'Chen',
  'Dara',
  'Eli',
  'Emma',
  'Femi',
  'Grace',
  'Hana',
  'Ivan',
  'Jade',
  'Jon',
  'Kai',
  'Lena',
  'Leo',
  'Mara',
  'Mei',
  'Nia',
  'Noor',
  'Omar',
  'Priya',
  'Rosa',
  'Sam',
  'Sofia',
  'Tariq',
  'Uma',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
] as const

export const LAST_NAMES = [
  'Adeyemi',
  'Berg',
  'Costa',
  'Diaz',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Mbeki',
  'Novak',
  'Okafor',
  'Park',
  'Quinn',
  'Rossi',
  'Singh',
  'Tanaka',
  'Urban',
  'Varga',
  'Wong',
  'Yilmaz',
  'Zhang',
] as const

const WORDS = (
  'the a my our this that today tonight morning coffee code train city rain sun garden book film music ' +
  'release bug fix deploy team lunch walk run bike river park market friend weekend idea plan draft photo ' +
  'light night window street bread tea quiet loud small big new old finally again still just really ' +
  'love like enjoy miss need want try learn build ship read write cook watch think hope wonder notice ' +
  'is was feels looks seems works broke shipped started finished found lost made took saw heard'
).split(' ')

const ENDINGS = ['.', '.', '.', '!', '?', ' :)', ' #today', ' #coding', ' #weekend', '…']

/** A sentence of `min` to `max` words, capitalised and punctuated. */
export function sentence(random: Random, min: number, max: number): string {
  const length = min + randomInt(random, max - min + 1)
  const words = Array.from({ length }, () => pick(random, WORDS))
  const text = words.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1) + pick(random, ENDINGS)
}

/** One to three sentences, kept within the 500-character limit on posts. */
export function postText(random: Random): string {
  const count = 1 + randomInt(random, 3)
  return Array.from({ length: count }, () => sentence(random, 4, 16))
    .join(' ')
    .slice(0, 500)
}
