import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react'
import { hasVisibleText } from '../../server/schemas/text.js'
import type { Visibility } from '../../common/audience.js'
import { AudiencePicker } from './audience-picker.js'
import { Avatar } from './avatar.js'
import { CharRing } from './char-ring.js'
import { ConfirmDialog } from './confirm-dialog.js'
import { EmojiPicker } from './emoji-picker.js'
import type { EmojiUse } from '../../common/custom-emoji.js'
import { ImagePicker } from './image-picker.js'
import { MediaPreview } from './media-preview.js'
import { emptyPoll, PollBuilder, pollReady, type PollDraft } from './poll-builder.js'
import { optionId, TypeaheadList } from './typeahead-list.js'
import { useComposerTypeahead, type Suggest } from './use-composer-typeahead.js'
import { LIMITS } from '../../common/limits.js'

/** An image of the draft: its upload's URL and the description its author writes ('' for none yet). */
export type DraftImage = { url: string; alt: string }

export type PostDraft = {
  content: string
  /** Up to LIMITS.postImages images, in the order they were added. */
  media: readonly DraftImage[]
  /** The content warning, when the author opened its field or the post had one; '' clears it. */
  spoilerText?: string
  /** A new post's poll, when the author made one. */
  poll?: PollDraft | undefined
  /** A new post's audience, where the form offers the choice. */
  visibility?: Visibility | undefined
  /** A new post's time to be published (ISO), where the form offers Schedule; absent: now. */
  scheduledAt?: string | undefined
}

const MAX_WARNING = LIMITS.spoilerText
const MAX_CONTENT = LIMITS.postContent

/** One text for every composer, the edit modal's included. */
const COMPOSER_PLACEHOLDER = 'What is happening?!'

type PostFormProps = {
  placeholder?: string
  /** 'Post' for a new post. */
  submitLabel?: string
  /** What the button says while the post is on its way. */
  busyLabel?: string
  initial?: Partial<PostDraft> | undefined
  author?: { avatarURL: string; name: string }
  /** The composer starts over after a post; the edit modal closes instead. */
  resetAfterSubmit?: boolean
  autoFocus?: boolean
  onSubmit: (draft: PostDraft) => Promise<boolean>
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
  /** Every change of the draft, so a page can keep it (the home composer does, until it is sent). */
  onChange?: (draft: PostDraft) => void
  /** People and tags to offer as `@` and `#` are typed; without it, none are. */
  suggest?: Suggest | undefined
  /** A new post may carry a poll; an edit cannot change one. */
  allowPoll?: boolean
  /** A new post may be scheduled for later (a date and time to publish it at). */
  allowSchedule?: boolean
  /**
   * A new post's audience to start from (the author's default): the form then offers the choice, and
   * sends it. An edit keeps the audience, so its form offers none.
   */
  audience?: Visibility | undefined
  /** Asks before posting an image without a description (the author's setting; on unless turned off). */
  remindAlt?: boolean
  /** The community's custom emoji, offered first in the emoji picker. */
  customEmojis?: readonly EmojiUse[] | undefined
}

/** The text box grows with its text instead of scrolling inside a fixed box. */
function useAutoGrow(text: string) {
  const ref = useRef<HTMLTextAreaElement>(null)
  useLayoutEffect(() => {
    const box = ref.current
    if (!box) return
    // Empty, the box has its styled height; measuring would only force a layout of the whole page.
    if (text === '') {
      box.style.height = ''
      return
    }
    box.style.height = 'auto'
    if (box.scrollHeight > 0) box.style.height = `${box.scrollHeight}px`
  }, [text])
  return ref
}

/**
 * The post composer and the edit form: text, up to four images each with its description, emojis, and
 * a submit button. Ctrl+Enter (⌘+Enter) sends; while a post is on its way, the text is locked. With
 * `remindAlt`, an image without a description asks once more before the post goes.
 */
export function PostForm(props: PostFormProps) {
  const { placeholder = COMPOSER_PLACEHOLDER, submitLabel = 'Post', busyLabel = 'Posting…', initial, author } = props
  const [content, setContent] = useState(initial?.content ?? '')
  const [media, setMedia] = useState<readonly DraftImage[]>(initial?.media ?? [])
  const [reminding, setReminding] = useState(false)
  const [spoilerText, setSpoilerText] = useState(initial?.spoilerText ?? '')
  const [warned, setWarned] = useState(spoilerText !== '')
  const [poll, setPoll] = useState<PollDraft | undefined>(undefined)
  /** With Schedule on, the date and time asked for, as the input holds it (local time); '' until chosen. */
  const [scheduleAt, setScheduleAt] = useState<string | null>(null)
  const scheduleId = useId()
  // Until the author picks one, the default shows: the account's record may arrive after the form.
  const [chosenAudience, setChosenAudience] = useState<Visibility | null>(null)
  const visibility = props.audience === undefined ? undefined : (chosenAudience ?? props.audience)
  const warningId = useId()
  const hadWarning = initial?.spoilerText !== undefined && initial.spoilerText !== ''
  /** The warning and the poll go only when there is one, or (the warning) when an edit takes one away. */
  const extras = useCallback(
    (warning: string, withPoll: PollDraft | undefined): Pick<PostDraft, 'spoilerText' | 'poll' | 'visibility'> => ({
      ...(warning !== '' || hadWarning ? { spoilerText: warning } : {}),
      ...(withPoll ? { poll: withPoll } : {}),
      ...(visibility ? { visibility } : {}),
    }),
    [hadWarning, visibility],
  )
  const [busy, setBusy] = useState<'idle' | 'uploading' | 'sending'>('idle')
  const textId = useId()
  const countId = useId()
  const listId = useId()
  const textRef = useAutoGrow(content)
  const typeahead = useComposerTypeahead(textRef, content, setContent, props.suggest)
  // The server's own test: text made only of invisible characters would post as an empty card.
  const isEmpty = (!hasVisibleText(content) && media.length === 0) || (poll !== undefined && !pollReady(poll))
  const full = media.length >= LIMITS.postImages
  const sending = busy === 'sending'

  const onChange = useRef(props.onChange)
  useLayoutEffect(() => {
    onChange.current = props.onChange
  })
  useEffect(() => {
    onChange.current?.({ content, media, ...extras(warned ? spoilerText : '', poll) })
  }, [content, media, spoilerText, warned, poll, extras])

  const upload = async (file: File) => {
    setBusy('uploading')
    const url = await props.onUpload(file)
    setBusy('idle')
    if (url) setMedia((images) => (images.length < LIMITS.postImages ? [...images, { url, alt: '' }] : images))
  }
  const describe = (index: number, alt: string) =>
    setMedia((images) => images.map((image, i) => (i === index ? { ...image, alt } : image)))

  const send = async (reminded = false) => {
    if (isEmpty || busy !== 'idle') return
    if (props.remindAlt && !reminded && media.some((image) => image.alt.trim() === '')) {
      setReminding(true)
      return
    }
    setReminding(false)
    setBusy('sending')
    const ok = await props.onSubmit({
      content: content.trim(),
      media: media.map(({ url, alt }) => ({ url, alt: alt.trim() })),
      ...extras(warned ? spoilerText.trim() : '', poll && { ...poll, options: poll.options.map((o) => o.trim()) }),
      ...(scheduleAt ? { scheduledAt: new Date(scheduleAt).toISOString() } : {}),
    })
    setBusy('idle')
    if (ok && props.resetAfterSubmit) {
      setContent('')
      setMedia([])
      setSpoilerText('')
      setWarned(false)
      setPoll(undefined)
      setChosenAudience(null)
      setScheduleAt(null)
    }
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void send()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (typeahead.open && typeahead.onKeyDown(event)) return
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      void send()
    }
  }

  return (
    <form className="post-form" onSubmit={submit} aria-busy={sending}>
      {author && <Avatar src={author.avatarURL} name={author.name} />}
      <div className="post-form-main">
        {warned && (
          <>
            <label htmlFor={warningId} className="visually-hidden">
              Content warning text
            </label>
            <input
              id={warningId}
              type="text"
              className="text-input post-form-warning"
              placeholder="Content warning"
              maxLength={MAX_WARNING}
              value={spoilerText}
              readOnly={sending}
              onChange={(e) => setSpoilerText(e.currentTarget.value)}
            />
          </>
        )}
        <label htmlFor={textId} className="visually-hidden">
          Post text
        </label>
        <textarea
          ref={textRef}
          id={textId}
          className="post-form-text"
          placeholder={placeholder}
          value={content}
          maxLength={MAX_CONTENT}
          rows={2}
          autoFocus={props.autoFocus}
          readOnly={sending}
          aria-describedby={countId}
          aria-autocomplete={props.suggest ? 'list' : undefined}
          aria-controls={typeahead.open ? listId : undefined}
          aria-activedescendant={
            typeahead.open && typeahead.active >= 0 ? optionId(listId, typeahead.active) : undefined
          }
          onChange={(e) => {
            setContent(e.currentTarget.value)
            typeahead.follow(e.currentTarget.value, e.currentTarget.selectionStart)
          }}
          onSelect={(e) => typeahead.follow(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={typeahead.close}
          onKeyDown={onKeyDown}
        />
        {typeahead.open && (
          <TypeaheadList
            id={listId}
            label="Suggestions"
            options={typeahead.options}
            active={typeahead.active}
            onPick={typeahead.pick}
          />
        )}
        {media.length > 0 && (
          <div className={`media-previews count-${media.length}`}>
            {media.map((image, i) => (
              <MediaPreview
                key={image.url}
                url={image.url}
                alt={image.alt}
                name={media.length > 1 ? `Image ${i + 1}` : 'Image'}
                locked={sending}
                onAltChange={(alt) => describe(i, alt)}
                onRemove={() => setMedia((images) => images.filter((_, j) => j !== i))}
              />
            ))}
          </div>
        )}
        {poll && <PollBuilder poll={poll} locked={sending} onChange={setPoll} />}
        {scheduleAt !== null && (
          <p className="schedule-field" id={scheduleId}>
            <label>
              Publish at{' '}
              <input
                type="datetime-local"
                value={scheduleAt}
                disabled={sending}
                onChange={(event) => setScheduleAt(event.target.value)}
              />
            </label>
            <span className="schedule-note">At least 5 minutes from now.</span>
          </p>
        )}
        {visibility && <AudiencePicker value={visibility} disabled={sending} onChange={setChosenAudience} />}
        {busy === 'uploading' && (
          <p className="form-note" role="status">
            Uploading image…
          </p>
        )}
        <div className="post-form-bar">
          <ImagePicker
            disabled={busy !== 'idle' || full}
            label={full ? `Add image (at most ${LIMITS.postImages})` : 'Add image'}
            onFile={(file) => void upload(file)}
            onError={props.onFileError}
          />
          <EmojiPicker
            custom={props.customEmojis}
            onPick={(emoji) => !sending && typeahead.insert(emoji, MAX_CONTENT)}
          />
          <button
            type="button"
            className="button ghost small"
            aria-pressed={warned}
            // The name holds the visible "CW", as speech input users say what they see (WCAG 2.5.3).
            aria-label="CW: content warning"
            title="Content warning"
            disabled={sending}
            onClick={() => setWarned(!warned)}
          >
            CW
          </button>
          {props.allowPoll && (
            <button
              type="button"
              className="button ghost small"
              aria-pressed={poll !== undefined}
              disabled={sending}
              onClick={() => setPoll(poll ? undefined : emptyPoll())}
            >
              Poll
            </button>
          )}
          {props.allowSchedule && (
            <button
              type="button"
              className="button ghost small"
              aria-pressed={scheduleAt !== null}
              aria-controls={scheduleAt !== null ? scheduleId : undefined}
              disabled={sending}
              onClick={() => setScheduleAt(scheduleAt === null ? '' : null)}
            >
              Schedule
            </button>
          )}
          <CharRing used={content.length} max={MAX_CONTENT} id={countId} />
          <button type="submit" className="button primary" disabled={isEmpty || busy !== 'idle' || scheduleAt === ''}>
            {sending ? busyLabel : scheduleAt !== null ? 'Schedule' : submitLabel}
          </button>
        </div>
      </div>
      {reminding && (
        <ConfirmDialog
          title="Post without a description?"
          text="An image without a description says nothing to people who cannot see it. You can turn this reminder off in Settings."
          confirmLabel="Post anyway"
          tone="plain"
          onConfirm={() => void send(true)}
          onCancel={() => setReminding(false)}
        />
      )}
    </form>
  )
}
