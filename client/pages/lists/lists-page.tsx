import { useEffect } from 'react'
import { Link, useLocation } from 'wouter'
import { useSnapshot } from 'valtio'
import { LoadError } from '../../components/load-error.js'
import { Spinner } from '../../components/spinner.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { paths } from '../../paths.js'
import { createPeopleList, loadPeopleLists, peopleLists } from '../../state/people-lists.js'
import { showToast } from '../../state/toasts.js'
import { ListForm } from './list-form.js'

/** `/lists`: my lists of people I follow, each a link to its timeline, and a form to make another. */
export function ListsPage() {
  useDocumentTitle('Lists')
  const state = useSnapshot(peopleLists)
  const [, navigate] = useLocation()
  useEffect(() => {
    void loadPeopleLists()
  }, [])
  return (
    <>
      <h1 className="page-title">Lists</h1>
      <section className="lists-page" aria-labelledby="lists-yours">
        <h2 id="lists-yours" className="section-title">
          Your lists
        </h2>
        {state.loading && !state.loaded && <Spinner />}
        {state.error && <LoadError message={state.error} onRetry={() => void loadPeopleLists()} />}
        {state.loaded &&
          (state.items.length === 0 ? (
            <p className="empty-state">You have no lists yet. A list shows the posts of the people you put on it.</p>
          ) : (
            <ul className="people-lists" aria-label="Your lists">
              {state.items.map((list) => (
                <li key={list.id}>
                  <Link href={paths.list.href(list.id)} className="people-list-link">
                    <span className="people-list-title">{list.title}</span>
                    {list.exclusive && <span className="form-note"> · Not on Home</span>}
                  </Link>
                </li>
              ))}
            </ul>
          ))}
      </section>
      <section className="lists-page" aria-labelledby="lists-new">
        <h2 id="lists-new" className="section-title">
          New list
        </h2>
        <ListForm
          onSave={async (draft) => {
            const made = await createPeopleList(draft)
            showToast(`List "${made.title}" was created`, 'success')
            navigate(paths.list.href(made.id))
          }}
        />
      </section>
    </>
  )
}
