import { Fragment } from 'react'
import type { Shortcut } from '../lib/shortcuts.js'
import { Modal } from './modal.js'

/** The list behind '?': every shortcut, by group, with its keys. */
export function ShortcutsDialog({ shortcuts, onClose }: { shortcuts: readonly Shortcut[]; onClose: () => void }) {
  const groups = [...new Set(shortcuts.map((s) => s.group))]
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      {groups.map((group) => (
        <section key={group} className="shortcut-group" aria-label={group}>
          <h3>{group}</h3>
          <dl className="shortcut-list">
            {shortcuts
              .filter((s) => s.group === group)
              .map((s) => (
                <div key={s.action} className="shortcut-row">
                  <dt>{s.label}</dt>
                  <dd>
                    {s.keys.map((key, i) => (
                      <Fragment key={key}>
                        {i > 0 && ' then '}
                        <kbd>{key}</kbd>
                      </Fragment>
                    ))}
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </Modal>
  )
}
