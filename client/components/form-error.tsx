/**
 * A form's failure that is about none of its fields, above its button; the form names it in its
 * aria-describedby, as a field names its own.
 */
export function FormError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  )
}
