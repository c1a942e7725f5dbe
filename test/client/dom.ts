// A DOM for the component tests: registered before Testing Library loads, so it finds `document`.
import 'global-jsdom/register'
import { configure } from '@testing-library/react'

// Pages load as chunks of their own; on a busy machine (the suite runs several processes on two cores)
// compiling one on first use, or a live update's turn, can outlast Testing Library's default one-second
// wait, which says nothing about the client. A wait that holds returns as soon as it does.
configure({ asyncUtilTimeout: 10_000 })
