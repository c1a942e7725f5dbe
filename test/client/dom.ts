// A DOM for the component tests: registered before Testing Library loads, so it finds `document`.
import 'global-jsdom/register'
import { configure } from '@testing-library/react'

// Pages load as chunks of their own; on a busy machine compiling one on first use can outlast
// Testing Library's default one-second wait, which says nothing about the client.
configure({ asyncUtilTimeout: 5000 })
