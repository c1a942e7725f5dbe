import { Type } from '@sinclair/typebox'

export const RoleSchema = Type.Union([Type.Literal('user'), Type.Literal('moderator'), Type.Literal('admin')])
