import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyRequest } from 'fastify'
import { MSG, badRequest, payloadTooLarge } from '../errors.js'
import { uploadError } from '../services/media.js'

/** An uploaded file kept on disk while it is imported: an archive may be far larger than memory should hold. */
export interface ReceivedFile {
  fileName: string
  file: string
  dispose(): Promise<void>
}

/** The upload's own errors, but a file too large is too large for an import, not for an image. */
function refusal(error: unknown) {
  const tooLarge = (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
  return tooLarge ? payloadTooLarge(MSG.importTooLarge) : uploadError(error)
}

/** The multipart field `file`, written to a temporary file; past `maxBytes` a 413 and nothing kept. */
export async function receiveImport(request: FastifyRequest, maxBytes: number): Promise<ReceivedFile> {
  const part = await request.file({ limits: { fileSize: maxBytes } }).catch((error: unknown) => {
    throw refusal(error)
  })
  if (part?.fieldname !== 'file') throw badRequest(MSG.noFile)
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-upload-'))
  const dispose = () => rm(dir, { recursive: true, force: true })
  const file = path.join(dir, 'upload')
  try {
    await pipeline(part.file, createWriteStream(file))
    if (part.file.truncated) throw payloadTooLarge(MSG.importTooLarge)
  } catch (error) {
    await dispose()
    throw refusal(error)
  }
  return { fileName: part.filename, file, dispose }
}
