/** Muting or blocking someone: what the confirmation asks, and what it says will happen. */
export type Restriction = 'mute' | 'block'

export function restrictConfirmation(
  kind: Restriction,
  username: string,
): { title: string; text: string; confirmLabel: string } {
  return kind === 'mute'
    ? {
        title: `Mute @${username}?`,
        text: `Their posts and comments will leave your timelines and you won't be notified of what they do. They won't know. You can unmute them in Settings.`,
        confirmLabel: 'Mute',
      }
    : {
        title: `Block @${username}?`,
        text: `You will stop following each other, and neither of you will see the other's posts or comments, or be able to follow, like or reply to the other. You can unblock them in Settings.`,
        confirmLabel: 'Block',
      }
}

/** Reporting what a menu is about: the words after "Report" ("post", "comment", "@name") and what opens the dialog. */
export type ReportItem = { what: string; onReport: () => void }

/**
 * The menu items that report what the menu is about and mute or block its author, as every menu about
 * another person's content offers them.
 */
export function restrictItems(username: string, onRestrict: (kind: Restriction) => void, report?: ReportItem) {
  return [
    ...(report ? [{ label: `Report ${report.what}`, onSelect: report.onReport }] : []),
    { label: `Mute @${username}`, onSelect: () => onRestrict('mute') },
    { label: `Block @${username}`, onSelect: () => onRestrict('block'), danger: true },
  ]
}
