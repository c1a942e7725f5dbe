import { useDocumentTitle } from '../../lib/document-title.js'
import { BlockedMutedSection } from './blocked-muted-section.js'

/** The account's settings, one section a concern, each in a file of its own beside this one. */
export function SettingsPage() {
  useDocumentTitle('Settings')
  return (
    <>
      <h1 className="page-title">Settings</h1>
      <BlockedMutedSection />
    </>
  )
}
