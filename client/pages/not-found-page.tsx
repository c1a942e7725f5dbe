import { Link } from 'wouter'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'

export function NotFoundPage() {
  useDocumentTitle('Page not found')
  return (
    <div className="center-page">
      <main className="card error-card">
        <h1>Error 404</h1>
        <p>The page you are searching for does not exist</p>
        <Link href={paths.home.href()} className="button primary">
          Back to Home
        </Link>
      </main>
    </div>
  )
}
