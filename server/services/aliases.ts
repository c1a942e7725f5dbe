/**
 * What an edit sets a field to when a client sent it under both its Chirp name and an alias
 * (docs/api-contract.md §1): the Chirp name's value, unless it merely repeats the stored value while
 * the alias changes it. A client that echoes a whole record back with its own field edited (`website`
 * as it was, `portfolio` new) means its own field.
 */
export function editedValue(sent: string | undefined, alias: string | undefined, stored: string): string | undefined {
  return sent === stored && alias !== undefined && alias !== stored ? alias : sent
}
