/** The recovery codes, shown once, right after two-factor sign-in is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  return (
    <div className="stack">
      <p role="status">
        Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once in place of a code,
        if you lose your phone. They are shown only now.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="row-end">
        <button type="button" className="button primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  )
}
