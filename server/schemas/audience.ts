import { Type } from '@sinclair/typebox'
import { QUOTE_POLICIES, VISIBILITIES } from '../../common/audience.js'

/** A post's audience (DECISIONS §12). */
export const VisibilitySchema = Type.Union(VISIBILITIES.map((visibility) => Type.Literal(visibility)))

/** Who may quote a person's posts (DECISIONS §15). */
export const QuotePolicySchema = Type.Union(QUOTE_POLICIES.map((policy) => Type.Literal(policy)))
