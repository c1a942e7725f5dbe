import type { ComponentType } from 'react'
import { AppsSection } from './apps-section.js'
import { AudienceSection } from './audience-section.js'
import { BlockedMutedSection } from './blocked-muted-section.js'
import { ComposingSection } from './composing-section.js'
import { DeleteSection } from './delete-section.js'
import { ExportSection } from './export-section.js'
import { FiltersSection } from './filters-section.js'
import { ImportSection } from './import-section.js'
import { MailSection } from './mail-section.js'
import { PasswordSection } from './password-section.js'
import { ProfileSection } from './profile-section.js'
import { PushSection } from './push-section.js'
import { SessionsSection } from './sessions-section.js'
import { TwoFactorSection } from './two-factor-section.js'

/** One section of the Settings page: its heading, and what it shows under it. */
export interface SettingsSection {
  /** The section's anchor: `/settings#password`. */
  id: string
  title: string
  Body: ComponentType
}

/** The Settings page's sections, in the order they are shown; each lives in a file of its own beside this one. */
export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'profile', title: 'Profile', Body: ProfileSection },
  { id: 'audience', title: 'Audience and followers', Body: AudienceSection },
  { id: 'composing', title: 'Composing', Body: ComposingSection },
  { id: 'password', title: 'Password', Body: PasswordSection },
  { id: 'two-factor', title: 'Two-factor sign-in', Body: TwoFactorSection },
  { id: 'push', title: 'Push notifications', Body: PushSection },
  { id: 'mail', title: 'E-mail notifications', Body: MailSection },
  { id: 'sessions', title: 'Sessions', Body: SessionsSection },
  { id: 'apps', title: 'Authorised apps', Body: AppsSection },
  { id: 'blocked-muted', title: 'Blocked and muted people', Body: BlockedMutedSection },
  { id: 'filters', title: 'Filters', Body: FiltersSection },
  { id: 'export', title: 'Export', Body: ExportSection },
  { id: 'import', title: 'Import', Body: ImportSection },
  { id: 'delete', title: 'Delete account', Body: DeleteSection },
]
