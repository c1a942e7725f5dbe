import type { ReactNode } from 'react'
import { Logo } from './logo.js'

/** The frame of the login and signup pages. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="center-page">
      <main className="card auth-card">
        <Logo />
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  )
}
