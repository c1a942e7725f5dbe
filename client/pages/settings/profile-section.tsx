import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { paths } from '../../paths.js'
import { session } from '../../state/session.js'

/** Where the profile is changed: on the profile page, as people see it. */
export function ProfileSection() {
  const { username } = useSnapshot(session)
  if (!username) return null
  return (
    <p>
      Your name, bio, website and picture are edited on{' '}
      <Link href={paths.profile.href(username)}>your profile page</Link>, where you see them as others do.
    </p>
  )
}
