import { useState } from 'react'
import { errorCode, errorMessage } from '../api/http.js'
import type { ErrorCode } from '../../common/error-codes.js'

/**
 * Which field of the form a refusal is about, by its code; a code the table does not name is about the
 * whole form, and is told above its button.
 */
export type FieldsByCode<Field extends string> = Partial<Record<ErrorCode, Field>>

export type FormCall<Field extends string> = {
  busy: boolean
  /** Runs the form's call; resolves whether it succeeded. A failure is kept until the next try. */
  run: (work: () => Promise<unknown>) => Promise<boolean>
  /** The message to show at `field` ('form': the one about no field), if the last try failed there. */
  errorAt: (field: Field | 'form') => string | undefined
  /** Forgets the failure: the person changed what it was about. */
  clear: () => void
}

/**
 * A form's one call at a time, with its failure kept by the form, at the field it is about: it goes when
 * the form is sent again or succeeds, and with the form itself when the page changes, where a toast
 * would have stayed on the next screen.
 */
export function useFormCall<Field extends string = never>(fields: FieldsByCode<Field> = {}): FormCall<Field> {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ field: Field | 'form'; message: string } | null>(null)
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    setProblem(null)
    try {
      await work()
      return true
    } catch (error) {
      const code = errorCode(error) as ErrorCode | undefined
      setProblem({ field: (code && fields[code]) || 'form', message: errorMessage(error) })
      return false
    } finally {
      setBusy(false)
    }
  }
  return {
    busy,
    run,
    errorAt: (field) => (problem?.field === field ? problem.message : undefined),
    clear: () => setProblem(null),
  }
}
