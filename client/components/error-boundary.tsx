import { Component, type ErrorInfo, type ReactNode } from 'react'

type State = { error: Error | null }
type Props = { children: ReactNode; /** A change (the location) clears a shown error. */ resetKey?: string }

/** Any render error below it shows a fallback with the error text, instead of a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null })
  }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack)
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <div className="center-page">
        <div className="card error-card" role="alert">
          <h1>Unexpected Application Error!</h1>
          <pre className="error-text">{error.message}</pre>
          <a className="button primary" href="/">
            Back to Home
          </a>
        </div>
      </div>
    )
  }
}
