import { Type } from '@sinclair/typebox'
import { VISIBILITIES } from '../../common/audience.js'

/** A post's audience (DECISIONS §12). */
export const VisibilitySchema = Type.Union(VISIBILITIES.map((visibility) => Type.Literal(visibility)))
