import { useSnapshot } from 'valtio'
import { Toasts } from '../components/toasts.js'
import { dismissToast, runToastAction, toasts } from '../state/toasts.js'

export function ToastHost() {
  const { items } = useSnapshot(toasts)
  return <Toasts items={items} onDismiss={dismissToast} onAction={runToastAction} />
}
