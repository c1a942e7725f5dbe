import { useDocumentTitle } from '../lib/document-title.js'
import { SETTINGS_SECTIONS } from './settings/sections.js'

/** The account's settings, one section after another (settings/sections.ts lists them). */
export function SettingsPage() {
  useDocumentTitle('Settings')
  return (
    <>
      <h1 className="page-title">Settings</h1>
      {SETTINGS_SECTIONS.map(({ id, title, Body }) => (
        <section key={id} id={id} className="settings-section" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>{title}</h2>
          <Body />
        </section>
      ))}
    </>
  )
}
