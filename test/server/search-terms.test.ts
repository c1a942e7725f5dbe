import t from 'tap'
import { namePrefixesOf } from '../../server/store/text-terms.js'

/** The prefixes a people search looks for: what each store is given, so they answer alike. */
await t.test('one of each word, folded: case and accents make no second word', async (t) => {
  t.strictSame(namePrefixesOf('Ada ADA adá'), ['ada'])
})

await t.test('a word that begins another is dropped: the longer one asks for it already', async (t) => {
  t.strictSame(namePrefixesOf('a ad ada'), ['ada'])
  t.strictSame(namePrefixesOf('c chris b ber'), ['chris', 'ber'])
  t.strictSame(namePrefixesOf('chl chr'), ['chl', 'chr'], 'neither begins the other')
})

await t.test('longest first, then in code unit order, whatever order they were typed in', async (t) => {
  t.strictSame(namePrefixesOf('b c ab'), ['ab', 'b', 'c'])
  t.strictSame(namePrefixesOf('ab c b'), ['ab', 'b', 'c'])
})

await t.test('44 one-letter words within 100 characters are 38 prefixes once folded', async (t) => {
  const q = 'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 ä ö ü é è ß ø å'
  t.equal(q.split(' ').length, 44)
  t.equal(namePrefixesOf(q).length, 38, 'ä, ö, ü, é, è and å fold into letters already there')
})
